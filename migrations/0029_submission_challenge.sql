-- The proof of an own handle by a submission (D164): the challenge's problem and its times on the
-- handle's row, empty until the account asks for one.
ALTER TABLE `judge_handles` ADD `challenge_problem` text;--> statement-breakpoint
ALTER TABLE `judge_handles` ADD `challenge_issued_at` integer;--> statement-breakpoint
ALTER TABLE `judge_handles` ADD `challenge_expires_at` integer;