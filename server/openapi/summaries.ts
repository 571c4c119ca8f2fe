/**
 * One line per director call: `METHOD /path | summary` (Fastify's `:param` paths). The OpenAPI
 * document (document.ts) takes each registered route's summary from here; tests/server/openapi.test.ts
 * fails when a registered route has none, so a new route cannot go undescribed. Details: docs/api.md.
 */
export const SUMMARIES = `
POST /users/sign_in.json | Sign in with email and password: sets the session cookie, answers the user, the CSRF token and the environment
DELETE /users/sign_out | Sign out: ends this session
GET /users/verify_user_session | Whether the session is alive and when it expires (does not extend it)
GET /users/reset_user_session_timeout | Extend the session
GET /users/session.json | Whether this browser is signed in, with the environment when it is (always 200; the workbench's call on load)
POST /users/password.json | Change one's own password (the current one required); the user's other sessions end
GET /environment.json | The signed-in user, permissions, time zone and director settings
GET /check_completed_background_processes | Background processes finished since the last poll
GET /settings/content_service.json | The content service settings
PUT /settings/content_service.json | Change the content service settings
GET /settings/site_banner.json | The site banner (text, colour, shown or not)
PUT /settings/site_banner.json | Change the site banner
GET /admin/users.json | Users (administrators)
POST /admin/users.json | Create a user
PATCH /admin/users/:id.json | Change a user's role, name or password
GET /jobs/list_page_data.json | The jobs list: page, sort, filter, cursors
POST /jobs/list_page_data.csv | Export jobs as CSV
GET /jobs/list_page_data.csv | Export jobs as CSV (options in the query)
POST /jobs/job_actions_data.csv | Export job actions as CSV
GET /jobs/job_actions_data.csv | Export job actions as CSV (options in the query)
GET /jobs/list_page_job_actions | The job actions of steps, by step id
GET /jobs/list_page_job_actions.json | The job actions of steps, by step id
POST /jobs/publish.json | Publish finished jobs to a pipeline
GET /jobs/job_actions/:id/events.json | The security events matched to a job action
GET /jobs/job_actions/:id/evidence.json | A job action's evidence: result and reason, each side's actor, output and timings, its events
GET /reports/summary.json | The Job Summary Report of jobs
GET /jobs/:id | One job with its steps
GET /jobs/:id/cancel.json | Cancel a job
DELETE /jobs/:id | Delete a finished job
POST /api/actor/register | Actor: register with a bulk token (answers the actor's own token)
POST /api/actor/heartbeat | Actor: heartbeat
POST /api/actor/poll | Actor: wait for work
POST /api/actor/work/:id/ready | Actor: the target's servers are ready
POST /api/actor/work/:id/evidence | Actor: what the target saw while serving (sent as its servers close)
POST /api/actor/work/:id/result | Actor: the result of a piece of work
POST /api/actor/tasks/:id/result | Actor: the report of a task (dependency install or version check)
POST /api/actor/work/:id/files/:fileId | Actor: download a file of a piece of work
GET /actors/tables.json | The Actors pane: actors, pending actors and bulk tokens
POST /bulk_tokens.json | Create a bulk token
GET /bulk_pending_nodes/:id | Pending actors of a bulk token
GET /csv_bulk_token/:id | A bulk token's pending actors as CSV
DELETE /delete_bulk_token/:id | Delete a bulk token
POST /delete_bulk_token/:id | Delete a bulk token (form)
DELETE /nodes/:id/destroy_pending.js | Remove a pending actor
POST /nodes/:id/destroy_pending.js | Remove a pending actor (form)
GET /nodes/new.js | The Add Actor dialog's data for a bulk token
GET /actor_installer/:id/options.json | The installer options of a bulk token
GET /actor_installer/:id/:file | An actor installer script (linux.sh, macos.sh)
GET /run/actors.json | Actors to run content between
GET /run/jobs/:id/status.json | A job's status and its actions' results
POST /run/actions/:id.json | Run an action between actors
POST /run/sequences/:id.json | Run a sequence between actors
POST /run/evaluations/:id.json | Run an evaluation between actors
POST /integrations/:id/events | Integration: send security events (bearer token)
POST /integrations/:id/events_token.json | Replace an integration's event token
GET /integrations.json | Integrations (with allow_msi=1&include_msi=1: the integrations menu's kinds and service state)
GET /integrations/new.js | The creation form of an integration kind (the integrations menu's modal)
POST /integrations.json | Create an integration
DELETE /integrations/:id.json | Delete an integration and its events
GET /threat_intel_integrations.json | Threat-intel sources (never their API keys) and the kinds the integrations menu offers
GET /threat_intel_integrations/new.js | The creation form of a threat-intel kind (the integrations menu's threat-intel modal)
POST /threat_intel_integrations.json | Add a threat-intel source (the API key is stored encrypted)
PATCH /threat_intel_integrations/:id.json | Change a threat-intel source (name, URL, enabled, replace or remove its API key)
DELETE /threat_intel_integrations/:id.json | Delete a threat-intel source
POST /lab/setups.json | Security lab: set up zones, firewall, token and integration
POST /lab/setups/:prefix/actors.json | Security lab: put the lab's actors into their zones
DELETE /lab/setups/:prefix.json | Security lab: remove what a setup made
GET /manage_sims/actions/form_definition.json | The action form's definition (types, fields, options)
GET /manage_sims/actions/get_tags.json | Tag options of the action form
GET /manage_sims/actions/picker.json | Actions to pick from
GET /manage_sims/actions/:id/form.json | An action loaded into the action form
POST /manage_sims/actions.json | Create an action
PUT /manage_sims/actions/:id.json | Save an action
GET /manage_sims/file_transfer_libraries.json | The file library
GET /manage_sims/file_transfer_libraries/:id.json | One file library entry
POST /manage_sims/file_transfer_libraries.json | Upload a file to the file library (multipart)
GET /manage_sims/v2/actions/library_actions_list | The Actions library list
GET /v2/simulations/library_simulations_list | The Sequences and Evaluations library list
GET /manage_sims/v2/actions/filters | Filter options of the Actions library
GET /v2/simulations/filters | Filter options of the simulations library
GET /manage_sims/library_actions_list.json | The Actions library list (legacy shape)
POST /manage_sims/library_actions_filter.json | Actions matching a filter tree
POST /manage_sims/quick_action_ids.json | Action ids matching a quick filter
GET /manage_sims/v2/actions/detail.json | One action's detail
GET /manage_sims/v2/actions/latest_jobs.json | An action's latest jobs
GET /library/actions.json | An action's preview
POST /manage_sims/actions/update_from_library.json | Update actions from the content library
PUT /manage_sims/actions/:id/approve | Approve an action
DELETE /manage_sims/actions/:id.json | Delete an action
PUT /manage_sims/actions/:id/files/:file_id/approve.json | Approve an action's file
PUT /manage_sims/actions/:id/files/:file_id/restrict.json | Restrict an action's file
DELETE /manage_sims/actions/:id/files/:file_id.json | Remove an action's file
GET /manage_sims/actions/download/:sim_id | Download an action's capture
GET /scripts.json | Shared scripts
GET /scripts/:id.json | One shared script
POST /scripts.json | Share a script
PUT /scripts/:id.json | Change a shared script
DELETE /scripts/:id.json | Delete a shared script
GET /scripts/:id/runs.json | Run records of a shared script
POST /scripts/:id/runs.json | Record a run of a shared script
PUT /scripts/:id/runs/:runId.json | Finish a run record (its runner only)
GET /search.json | Quick open: the objects a palette query names (Actions, simulations, jobs, actors, monitors, scripts, filters, dashboards)
GET /manage_sims/pcaps.json | Captures the user may open in the Packet View (their uploads, every Action's capture; all for an admin), by name, VID or id
GET /manage_sims/pcaps/:id/packets.json | Packets of a stored capture
GET /manage_sims/pcaps/:id/packets/:no | One packet of a stored capture, decoded
POST /manage_sims/upload/upload_pcap_file | Upload a capture (multipart)
GET /manage_sims/upload/check_process_status/:upload_id | An upload's progress
GET /manage_sims/upload/show_conversations/:upload_id | An upload's conversations
POST /manage_sims/upload/destroy_conversations | Remove conversations from an upload
POST /manage_sims/upload/create_pcap_action | Create a PCAP action from an upload
GET /filters/config.json | Filter configuration of a page
GET /lookup/:matchObject/:matchField | Values to filter by
GET /filters/page_filter_data.json | Filter data of a page
GET /reports/dimension_children.json | Children of a report dimension
GET /filters/saved.json | Saved filters
POST /filters/saved.json | Save a filter
DELETE /filters/saved/:id.json | Delete a saved filter
GET /topology/network.json | The network map: zones, devices, actors and links
GET /topology/layout.json | The network map's saved layout
PUT /topology/layout.json | Save the network map's layout
GET /library/simulations.json | A simulation's preview
POST /simulations/vid_and_id | Simulation ids from VIDs
POST /manage_sims/actions/vid_and_id | Action ids from VIDs
POST /simulations.json | Create a sequence or evaluation
PUT /simulations/:id.json | Save a sequence or evaluation
POST /simulations/:id/clone.json | Clone a sequence or evaluation
GET /reports/results.json | Report: results grouped by a key
GET /reports/time_series.json | Report: results over time
GET /reports/mitre_taam_data.json | Report: results by ATT&CK tactic
GET /reports/tree_map.json | Report: tree map
GET /reports/mitre_matrix.json | Report: the ATT&CK matrix
GET /reports/mitre_technique.json | Report: the actions of a technique
GET /reports/mitre_untested.json | Report: untested techniques
POST /reports/panels.json | Report: every panel of a dashboard in one call
POST /reports/:source | Export a report as CSV
GET /reports/panel_library.json | The dashboard Panel Library
GET /dashboards.json | Dashboards (own and shared)
GET /dashboards/share_users.json | Users a dashboard can be shared with
POST /dashboards.json | Create a dashboard
GET /dashboards/:id | One dashboard
PATCH /dashboards/:id | Change a dashboard
DELETE /dashboards/:id | Delete a dashboard
POST /dashboards/:id/duplicate.json | Copy a dashboard
PUT /dashboards/:id/shares.json | Share a dashboard
GET /monitors.json | Monitors
GET /monitor_groups.json | Monitor groups
GET /email_profiles.json | Email profiles
GET /monitors/options.json | Monitor editor options
GET /monitors/drift.json | Monitor drift
GET /monitors/expected_events.json | Expected events of a monitor step
GET /monitors/new.json | A new monitor's draft
GET /monitors/:id | One monitor
GET /monitors/:id/runs.json | A monitor's runs
POST /monitors.json | Create a monitor
PUT /monitors/:id | Save a monitor
DELETE /monitors/:id | Delete a monitor
POST /monitors/:id/duplicate.json | Copy a monitor
POST /monitors/:id/pause.json | Pause a monitor
POST /monitors/:id/resume.json | Resume a monitor
POST /monitors/:id/run_now.json | Run a monitor now
GET /monitor/update_data | Monitor list refresh data
GET /action_user_profiles.json | Run-as profiles
POST /action_user_profiles.json | Create a run-as profile
PATCH /action_user_profiles/:id.json | Change a run-as profile
DELETE /action_user_profiles/:id.json | Delete a run-as profile
GET /topology/nodes/:id.json | One actor or device for editing
PATCH /topology/nodes/:id.json | Change an actor or device
GET /integrations/dependency_actors.json | Actors dependencies can be installed on, with their last install or version check
GET /topology/nodes/:id/dependencies.json | One actor's dependency state and its last task
POST /topology/nodes/:id/install_dependencies.json | Queue a dependency install on an actor (it installs and reports)
POST /topology/nodes/:id/version_check.json | Queue a version check on an actor
GET /operational_status.json | Operational status of the director and actors
GET /tags/options.json | MON-132 the tag options of a tag type for Actions, actors or simulations (answer data[tag_type])
POST /tags/:taggable/:id/add.json | Add tags to an action or simulation
POST /tags/:taggable/:id/remove.json | Remove tags from an action or simulation
GET /api/openapi.json | This OpenAPI 3.1 description of the director's calls
GET / | The workbench (HTML)
`;
