-- Security events keep their severity (low, medium, high, critical; null when the source gives none),
-- and a job action's events say whether each was an alert: the events modal shows both. Suspicious
-- stays what it was meant to be (an event only suspected to belong to the action), no longer derived
-- from a high severity.
alter table integration_events add column severity text check (severity in ('low', 'medium', 'high', 'critical'));
alter table job_action_events add column severity text check (severity in ('low', 'medium', 'high', 'critical'));
alter table job_action_events add column alert boolean not null default false;
