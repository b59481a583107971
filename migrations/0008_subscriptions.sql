-- Subscriptions: several lead times, quiet hours, noise filters, follow or mute one contest, private
-- calendar feeds, and the iCalendar SEQUENCE of a contest.
CREATE TABLE `calendar_feeds` (
	`user_id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_hash` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE TABLE `contest_subscriptions` (
	`user_id` text NOT NULL,
	`contest_id` text NOT NULL,
	`mode` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `contest_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_subscriptions_contest_mode` ON `contest_subscriptions` (`contest_id`,`mode`,`user_id`);--> statement-breakpoint
ALTER TABLE `contests` ADD `sequence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `lead_times` text DEFAULT '[1440]' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `quiet_start` text;--> statement-breakpoint
ALTER TABLE `users` ADD `quiet_end` text;--> statement-breakpoint
ALTER TABLE `users` ADD `min_duration` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `max_duration` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `exclude_words` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Each user's one notifyBefore becomes their one lead time, in minutes.
UPDATE `users` SET `lead_times` = json_array(`notify_before` * 60);--> statement-breakpoint
-- Scheduled reminders were keyed by the contest's start time alone; a key now names the lead time
-- too, so a reminder already made counts as the one of the user's (single) lead time.
UPDATE `notifications` SET `dedupe_key` = `dedupe_key` || ':' ||
  (SELECT u.`notify_before` * 60 FROM `users` u WHERE u.`id` = `notifications`.`user_id`)
  WHERE `type` = 'CONTEST_REMINDER' AND `dedupe_key` <> '' AND `dedupe_key` NOT GLOB '*[^0-9]*';
