-- Communities: Discord channels and Telegram groups that take contest announcements with their
-- own filters, and each announcement once per (destination, contest, lead time).
CREATE TABLE `community_announcements` (
	`id` text PRIMARY KEY NOT NULL,
	`destination_id` text NOT NULL,
	`contest_id` text,
	`dedupe_key` text NOT NULL,
	`lead_minutes` integer NOT NULL,
	`due_at` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`provider_message_id` text,
	`error` text,
	`queued_at` integer,
	`claimed_until` integer,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`destination_id`) REFERENCES `community_destinations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_announcements_once` ON `community_announcements` (`destination_id`,`contest_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `community_announcements_unqueued` ON `community_announcements` (`created_at`) WHERE queued_at IS NULL;--> statement-breakpoint
CREATE TABLE `community_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`chat_id` text NOT NULL,
	`guild_id` text,
	`title` text DEFAULT '' NOT NULL,
	`role_id` text,
	`platforms` text NOT NULL,
	`contest_types` text DEFAULT '[]' NOT NULL,
	`lead_times` text DEFAULT '[60]' NOT NULL,
	`include_words` text DEFAULT '[]' NOT NULL,
	`exclude_words` text DEFAULT '[]' NOT NULL,
	`min_duration` integer,
	`owner_id` text,
	`dead_at` integer,
	`dead_reason` text,
	`owner_told_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_destinations_chat` ON `community_destinations` (`channel`,`chat_id`);--> statement-breakpoint
CREATE INDEX `community_destinations_owner` ON `community_destinations` (`owner_id`);