DROP INDEX `notifications_contest`;--> statement-breakpoint
DROP INDEX `notifications_dedupe`;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe` ON `notifications` (`contest_id`,`type`,`user_id`,`dedupe_key`);