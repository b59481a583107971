-- Results asked per handle: the walk's last handle key kept on its check, so a duplicate or
-- restarted walk goes on after it and no handle is asked twice for a contest.
ALTER TABLE `result_checks` ADD `walk_after` text;
