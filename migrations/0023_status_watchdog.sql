-- The service watching itself (status/): job_runs, one row per cron run, and incidents, the
-- platforms' and the service's own, for /status and the watchdog. New tables only.
CREATE TABLE `incidents` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`subject` text NOT NULL,
	`kind` text NOT NULL,
	`detail` text,
	`started_at` integer NOT NULL,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `incidents_opening` ON `incidents` (`scope`,`subject`,`started_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `incidents_open` ON `incidents` (`scope`,`subject`) WHERE ended_at IS NULL;--> statement-breakpoint
CREATE INDEX `incidents_ended` ON `incidents` (`ended_at`);--> statement-breakpoint
CREATE TABLE `job_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`job` text NOT NULL,
	`cron` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`outcome` text NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `job_runs_job_started` ON `job_runs` (`job`,`started_at`);