DROP INDEX `notifications_status_updated`;--> statement-breakpoint
DROP INDEX `notifications_expires`;