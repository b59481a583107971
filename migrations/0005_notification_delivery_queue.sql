ALTER TABLE `notification_deliveries` ADD `queued_at` integer;--> statement-breakpoint
ALTER TABLE `notification_deliveries` ADD `claimed_until` integer;--> statement-breakpoint
CREATE INDEX `notification_deliveries_unqueued` ON `notification_deliveries` (`created_at`) WHERE queued_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_no_contest` ON `notifications` (`user_id`,`type`,`dedupe_key`) WHERE contest_id IS NULL AND dedupe_key <> '';--> statement-breakpoint
CREATE INDEX `notifications_created` ON `notifications` (`created_at`);