-- Sign in with Google: the Google account (`sub`) linked to an account at its first Google
-- sign-in. Unique among the rows that have one; NULL until then.
ALTER TABLE `users` ADD `google_subject` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_subject` ON `users` (`google_subject`);