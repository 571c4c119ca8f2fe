import { useQuery } from '@tanstack/react-query';
import { LIBRARY_LIMITS, isFinishedJobStatus } from '@/api/contracts/library';
import { SIMULATION_TYPE_LABELS, type SimulationPreview, type SimulationStep } from '@/api/contracts/simulations';
import { ApiError } from '@/api/http';
import { Table } from '@/ui/table';
import { previewQuery } from './api';
import { dateTime, ranBy, statusTone } from './ui';
import { Section } from '@/ui/section';
import { ACTION_TYPE_LABELS } from '@/api/contracts/vocabulary';

/** The preview of a simulation by id or VID, refetched every 30 s while one of its latest jobs runs. */
export function useSimulation(ref: { id: number } | { vid: string }) {
  return useQuery({
    ...previewQuery(ref),
    refetchInterval: (q) => (q.state.data?.latest_jobs.some((j) => !isFinishedJobStatus(j.status)) ? LIBRARY_LIMITS.jobRefetchMs : false),
  });
}

export function ErrorNote({ error }: { error: unknown }) {
  return (
    <p role="alert" className="rounded border border-red-500/60 bg-red-500/10 p-2">
      {error instanceof ApiError ? error.message : 'The simulation could not be loaded.'}
    </p>
  );
}

function StepFlags({ step }: { step: SimulationStep }) {
  const flags = [step.dns_found && 'DNS', step.host_cli_found && 'Host CLI', step.cloud_validation_found && 'Cloud'].filter(Boolean) as string[];
  return (
    <span className="flex gap-1 text-2xs">
      {flags.map((f) => (
        <span key={f} className="rounded border border-line bg-raised px-1 text-muted" title="Runs on a single actor">
          {f}
        </span>
      ))}
      {!step.can_run && <span className="rounded border border-amber-500/40 bg-amber-500/10 px-1 text-amber-500">{step.actions.length ? 'No enabled Actions' : 'Empty step'}</span>}
    </span>
  );
}

/**
 * The steps in order with their Actions. Each Action links to /manage_sims/action/{vid}: in the
 * preview modal (`newTab`) it opens in a new browser tab (MON-001), elsewhere in the Actions pane.
 */
export function StepsList({ steps, newTab }: { steps: SimulationStep[]; newTab: boolean }) {
  if (!steps.length) return <p className="text-muted">This simulation has no steps.</p>;
  return (
    <ol className="flex flex-col gap-2" aria-label="Steps">
      {steps.map((step, i) => (
        <li key={step.id} className="rounded border border-line/70 bg-raised/40 p-2">
          <div className="flex items-center gap-2">
            <span className="font-mono text-2xs text-muted">{i + 1}.</span>
            <span className="min-w-0 flex-1 truncate font-medium">{step.name || `Step ${i + 1}`}</span>
            <StepFlags step={step} />
          </div>
          {step.actions.length > 0 && (
            <ul className="mt-1 flex flex-col gap-0.5 pl-5">
              {step.actions.map((a) => (
                <li key={`${step.id}-${a.id}`} className="flex items-center gap-2 text-sm">
                  <a
                    href={`/manage_sims/action/${encodeURIComponent(a.vid)}`}
                    {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                    className="font-mono text-2xs text-accent underline"
                  >
                    {a.vid}
                  </a>
                  <span className={`min-w-0 flex-1 truncate ${a.disabled ? 'text-muted line-through' : ''}`} title={a.name}>
                    {a.name}
                  </span>
                  <span className="text-2xs text-muted">{ACTION_TYPE_LABELS[a.action_type] ?? a.action_type}</span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

function LatestRuns({ p }: { p: SimulationPreview }) {
  return (
    <Section
      title="Latest Runs"
      actions={
        p.total_jobs > 0 && (
          <a href={`/jobs?vid=${encodeURIComponent(p.vid)}`} className="text-2xs text-accent underline">
            View All ({p.total_jobs})
          </a>
        )
      }
    >
      {p.latest_jobs.length === 0 ? (
        <p className="text-muted">Never Run</p>
      ) : (
        <Table
          label="Latest Runs"
          head={['Job', 'Name', 'Status', 'Ran By', 'Started']}
          rows={p.latest_jobs.map((j) => [
            <a key="id" href={`/jobs/${j.id}`} className="font-mono text-2xs text-accent underline">
              {j.id}
            </a>,
            j.name,
            <span key="s" className={statusTone(j.status)}>
              {j.status}
            </span>,
            ranBy(j.user),
            dateTime(j.created_at),
          ])}
        />
      )}
    </Section>
  );
}

/** One simulation: name, VID, description, steps with their Actions, tags and latest runs. */
export function SimulationView({ p, newTab = false, showName = true }: { p: SimulationPreview; newTab?: boolean; showName?: boolean }) {
  return (
    <div className="flex flex-col gap-4" data-testid="simulation-view">
      <div className="flex flex-col gap-1">
        {showName && <h2 className="text-base font-semibold">{p.name}</h2>}
        <div className="flex flex-wrap items-center gap-2 text-2xs text-muted">
          <span className="font-mono text-ink" aria-label="VID">
            {p.vid}
          </span>
          <span>{SIMULATION_TYPE_LABELS[p.simulation_type]}</span>
          <span>
            {p.steps.length} step{p.steps.length === 1 ? '' : 's'}
          </span>
          {p.disabled && <span className="text-red-500">Disabled</span>}
        </div>
      </div>
      <Section title="Description">{p.description ? <p className="text-sm whitespace-pre-wrap">{p.description}</p> : <p className="text-muted">No description.</p>}</Section>
      <Section title="Steps">
        <StepsList steps={p.steps} newTab={newTab} />
      </Section>
      <Section title="Tags">
        {p.tags.length ? (
          <div className="flex flex-wrap gap-1">
            {p.tags.map((t) => (
              <span key={t.id} className="rounded border border-line bg-raised px-1.5 text-2xs leading-5">
                {t.name}
              </span>
            ))}
          </div>
        ) : (
          <p className="text-muted">No tags.</p>
        )}
      </Section>
      <LatestRuns p={p} />
    </div>
  );
}
