CREATE TABLE `contests` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`name` text NOT NULL,
	`platform` text NOT NULL,
	`phase` text NOT NULL,
	`type` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`duration_minutes` integer NOT NULL,
	`description` text,
	`website_url` text,
	`registration_url` text,
	`difficulty` text,
	`participant_count` integer,
	`problem_count` integer,
	`platform_metadata` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_notified` integer DEFAULT false NOT NULL,
	`last_synced_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contests_platform_platform_id` ON `contests` (`platform`,`platform_id`);--> statement-breakpoint
CREATE INDEX `contests_active_start` ON `contests` (`is_active`,`start_time`);--> statement-breakpoint
CREATE INDEX `contests_active_end` ON `contests` (`is_active`,`end_time`);--> statement-breakpoint
CREATE INDEX `contests_platform_start` ON `contests` (`platform`,`start_time`);--> statement-breakpoint
CREATE INDEX `contests_type_start` ON `contests` (`type`,`start_time`);--> statement-breakpoint
CREATE INDEX `contests_difficulty_start` ON `contests` (`difficulty`,`start_time`);