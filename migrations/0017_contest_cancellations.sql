-- Future contests the sync found cancelled (a healthy source stopped listing them), kept until
-- the notifier has told their followers. Expand only.
CREATE TABLE `contest_cancellations` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` text NOT NULL,
	`start_time` integer NOT NULL,
	`detected_at` integer NOT NULL,
	`handled_at` integer,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_cancellations_pending` ON `contest_cancellations` (`handled_at`,`detected_at`);