-- How each platform's sources fare: state (ok, degraded, failing, blocked), the source in use,
-- and the open incident whose events went out once. Expand only.
CREATE TABLE `platform_status` (
	`platform` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`source` text NOT NULL,
	`last_success_at` integer,
	`last_attempt_at` integer NOT NULL,
	`incident_started_at` integer,
	`retry_after` integer,
	`blocked_count` integer DEFAULT 0 NOT NULL,
	`last_error` text
);
