-- Discord communities: guild scheduled events of the contests a channel announces (community_events,
-- once per destination and contest), the switch that turns them on, and the roles members pick.
CREATE TABLE `community_events` (
	`id` text PRIMARY KEY NOT NULL,
	`destination_id` text NOT NULL,
	`contest_id` text,
	`event_id` text,
	`start_time` integer,
	`end_time` integer,
	`deleted_at` integer,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`queued_at` integer,
	`claimed_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`destination_id`) REFERENCES `community_destinations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_events_once` ON `community_events` (`destination_id`,`contest_id`);--> statement-breakpoint
CREATE INDEX `community_events_status` ON `community_events` (`status`,`end_time`);--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `events` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `events_refused_at` integer;--> statement-breakpoint
ALTER TABLE `community_destinations` ADD `roles` text DEFAULT '{}' NOT NULL;