-- What a notification says, stored once for all its recipients (notification_contents). A notice
-- about a contest is its (contest, type, dedupe key): the notifications' unique key becomes
-- (contest, user, content). Notifications made before keep their own words and key; each gets
-- the content of its notice (with no words of its own) so the new key holds for them too.
-- Pending deliveries leave the status index, which only channel health reads; the admin history
-- and the removals by age go by id (its first 8 hex digits are the second of creation).
CREATE TABLE `notification_contents` (
	`id` integer PRIMARY KEY NOT NULL,
	`contest_id` text,
	`type` text,
	`dedupe_key` text,
	`digest` text,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`payload` text,
	`used_at` integer NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_contents_digest_unique` ON `notification_contents` (`digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_contents_notice` ON `notification_contents` (`contest_id`,`type`,`dedupe_key`);--> statement-breakpoint
DROP INDEX `notifications_created`;--> statement-breakpoint
DROP INDEX `notifications_dedupe`;--> statement-breakpoint
ALTER TABLE `notifications` ADD `content_id` integer;--> statement-breakpoint
INSERT INTO `notification_contents` (`contest_id`, `type`, `dedupe_key`, `title`, `message`, `used_at`)
  SELECT `contest_id`, `type`, `dedupe_key`, '', '', max(`created_at`) FROM `notifications`
  WHERE `contest_id` IS NOT NULL GROUP BY `contest_id`, `type`, `dedupe_key`;--> statement-breakpoint
UPDATE `notifications` SET `content_id` = (SELECT c.`id` FROM `notification_contents` c
    WHERE c.`contest_id` = `notifications`.`contest_id` AND c.`type` = `notifications`.`type`
      AND c.`dedupe_key` = `notifications`.`dedupe_key`)
  WHERE `contest_id` IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe` ON `notifications` (`contest_id`,`user_id`,`content_id`);--> statement-breakpoint
DROP INDEX `notification_deliveries_status`;--> statement-breakpoint
CREATE INDEX `notification_deliveries_status` ON `notification_deliveries` (`status`,`updated_at`) WHERE status <> 'PENDING';