-- Judge handles and results (results/): handles an account linked (its own, proven by a token in a
-- public profile field, or friends), which result alerts it takes, the ended contests whose results
-- are awaited, and the linked handles' results. New tables only.
CREATE TABLE `contest_results` (
	`contest_id` text NOT NULL,
	`platform` text NOT NULL,
	`handle_key` text NOT NULL,
	`handle` text NOT NULL,
	`rank` integer,
	`solved` integer,
	`old_rating` integer,
	`new_rating` integer,
	`performance` integer,
	`rated` integer NOT NULL,
	`told_delta` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`contest_id`, `handle_key`),
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_results_handle` ON `contest_results` (`platform`,`handle_key`,`updated_at`);--> statement-breakpoint
CREATE TABLE `judge_handles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`handle` text NOT NULL,
	`handle_key` text NOT NULL,
	`relation` text NOT NULL,
	`state` text DEFAULT 'UNPROVEN' NOT NULL,
	`proof_token` text,
	`proof_expires_at` integer,
	`proven_at` integer,
	`rating` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_handles_user` ON `judge_handles` (`user_id`,`relation`,`platform`,`handle_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `judge_handles_proven` ON `judge_handles` (`platform`,`handle_key`) WHERE relation = 'OWN' AND state = 'PROVEN';--> statement-breakpoint
CREATE INDEX `judge_handles_platform_handle` ON `judge_handles` (`platform`,`handle_key`);--> statement-breakpoint
CREATE TABLE `result_checks` (
	`contest_id` text PRIMARY KEY NOT NULL,
	`platform` text NOT NULL,
	`state` text DEFAULT 'WAITING' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_check_at` integer NOT NULL,
	`claimed_until` integer,
	`rated` integer,
	`participants` integer,
	`results_digest` text,
	`published_at` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `result_checks_due` ON `result_checks` (`state`,`next_check_at`);--> statement-breakpoint
CREATE TABLE `result_preferences` (
	`user_id` text PRIMARY KEY NOT NULL,
	`own_results` integer DEFAULT true NOT NULL,
	`friend_results` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
