-- Telegram forum topics as destinations of their own (thread_id in the destination's unique key),
-- announcements deleted after their contest where asked (cleanup), and the edits of posted
-- messages whose contest moved or was cancelled: community_message_changes for announcements,
-- notification_edits for a person's reminders, each change once by its unique key; an index of the
-- announcements posted, which each run compares with their contests.
-- The unique key of community_destinations keeps its name; a release before this one upserts on
-- (channel, chat_id) and would not find it.
CREATE TABLE `community_message_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`announcement_id` text NOT NULL,
	`change_key` text NOT NULL,
	`kind` text NOT NULL,
	`start_time` integer,
	`due_at` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`queued_at` integer,
	`claimed_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`announcement_id`) REFERENCES `community_announcements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_message_changes_once` ON `community_message_changes` (`announcement_id`,`change_key`);--> statement-breakpoint
CREATE INDEX `community_message_changes_unqueued` ON `community_message_changes` (`created_at`) WHERE queued_at IS NULL;--> statement-breakpoint
CREATE TABLE `notification_edits` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`change_key` text NOT NULL,
	`start_time` integer,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`queued_at` integer,
	`claimed_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `notification_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_edits_once` ON `notification_edits` (`delivery_id`,`change_key`);--> statement-breakpoint
CREATE INDEX `notification_edits_unqueued` ON `notification_edits` (`created_at`) WHERE queued_at IS NULL;--> statement-breakpoint
DROP INDEX `community_destinations_chat`;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `thread_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `thread_title` text;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `cleanup` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `community_destinations_chat` ON `community_destinations` (`channel`,`chat_id`,`thread_id`);--> statement-breakpoint
CREATE INDEX `community_announcements_posted` ON `community_announcements` (`sent_at`) WHERE status = 'SENT' AND provider_message_id IS NOT NULL;
