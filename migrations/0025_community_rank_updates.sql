-- Rank updates of community destinations: the switch, the members and their judge handles
-- (community_members, owned by results/), and one rank post per destination and contest
-- (community_rank_posts, its unique key claimed before sending).
CREATE TABLE `community_members` (
	`id` text PRIMARY KEY NOT NULL,
	`destination_id` text NOT NULL,
	`member_id` text NOT NULL,
	`user_id` text,
	`judge_handle_id` text,
	`platform` text NOT NULL,
	`handle` text NOT NULL,
	`handle_key` text NOT NULL,
	`state` text DEFAULT 'UNPROVEN' NOT NULL,
	`proof_token` text,
	`proof_expires_at` integer,
	`proven_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`destination_id`) REFERENCES `community_destinations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`judge_handle_id`) REFERENCES `judge_handles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_member` ON `community_members` (`destination_id`,`member_id`,`platform`);--> statement-breakpoint
CREATE INDEX `community_members_handle` ON `community_members` (`platform`,`handle_key`);--> statement-breakpoint
CREATE INDEX `community_members_user` ON `community_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `community_rank_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`destination_id` text NOT NULL,
	`contest_id` text NOT NULL,
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
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_rank_posts_once` ON `community_rank_posts` (`destination_id`,`contest_id`);--> statement-breakpoint
CREATE INDEX `community_rank_posts_unqueued` ON `community_rank_posts` (`contest_id`) WHERE queued_at IS NULL;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `rank_updates` integer DEFAULT false NOT NULL;