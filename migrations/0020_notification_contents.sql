-- What a notification says, stored once for all its recipients (notification_contents); new
-- notifications point at it. Pending deliveries leave the status index, which only channel health
-- reads, and only for outcomes.
CREATE TABLE `notification_contents` (
	`id` integer PRIMARY KEY NOT NULL,
	`digest` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`payload` text,
	`used_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_contents_digest_unique` ON `notification_contents` (`digest`);--> statement-breakpoint
DROP INDEX `notification_deliveries_status`;--> statement-breakpoint
CREATE INDEX `notification_deliveries_status` ON `notification_deliveries` (`status`,`updated_at`) WHERE status <> 'PENDING';--> statement-breakpoint
ALTER TABLE `notifications` ADD `content_id` integer;