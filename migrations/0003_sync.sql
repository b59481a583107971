CREATE TABLE `contest_reschedules` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` text NOT NULL,
	`old_start_time` integer NOT NULL,
	`new_start_time` integer NOT NULL,
	`detected_at` integer NOT NULL,
	`handled_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_reschedules_pending` ON `contest_reschedules` (`handled_at`,`detected_at`);--> statement-breakpoint
CREATE TABLE `job_locks` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`platform` text NOT NULL,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`unchanged` integer NOT NULL,
	`skipped` integer NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `sync_runs_platform_finished` ON `sync_runs` (`platform`,`status`,`finished_at`);--> statement-breakpoint
ALTER TABLE `contests` ADD `sync_hash` text;