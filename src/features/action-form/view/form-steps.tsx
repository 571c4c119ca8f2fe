/** The three steps: their titles, the step bar (errors marked), a step's section, and the wizard's Previous/Continue/Save footer. */
import type { FieldErrors } from 'react-hook-form';
import { useFormState } from 'react-hook-form';
import type { ActionType } from '@/api/contracts/vocabulary';
import { CommandButton } from '@/commands/command-menu';
import { stepOfField, type ActionFormValues, type StepNumber } from '../form-model';
import { StepDetails } from '../step-details';
import { StepTags } from '../step-tags';
import { StepType } from '../step-type';
import type { FormPaneKind } from '../pane-context';
import { flattenErrors } from './form-errors';
import type { FormView, StepNavigation } from './use-steps';

export const STEPS: { n: StepNumber; title: string }[] = [
  { n: 1, title: 'Name/Description' },
  { n: 2, title: 'Action Details' },
  { n: 3, title: 'Tags/Dimensions' },
];

export function StepBar({ view, step, goTo }: { view: FormView; step: StepNumber; goTo(n: StepNumber): void }) {
  const { errors } = useFormState<ActionFormValues>();
  const stepHasError = (n: StepNumber) => Object.keys(flattenErrors(errors as FieldErrors)).some((p) => stepOfField(p) === n);
  return (
    <nav aria-label="Steps" className="flex items-center gap-2">
      {STEPS.map((s, i) => {
        const current = view === 'wizard' && step === s.n;
        const bad = stepHasError(s.n);
        return (
          <div key={s.n} className="flex items-center gap-2">
            {i > 0 && <span className="h-px w-6 bg-line" aria-hidden="true" />}
            <button
              type="button"
              aria-current={current ? 'step' : undefined}
              onClick={() => goTo(s.n)}
              className={`flex items-center gap-1.5 rounded px-2 py-1 text-sm ${current ? 'bg-accent/15 font-semibold text-ink' : 'text-muted hover:text-ink'}`}
            >
              <span className={`flex h-5 w-5 items-center justify-center rounded-full border text-2xs ${bad ? 'border-red-500 text-red-500' : current ? 'border-accent text-accent' : 'border-line'}`}>{s.n}</span>
              {s.title}
              {bad && <span className="sr-only"> (has errors)</span>}
            </button>
          </div>
        );
      })}
    </nav>
  );
}

export function StepSection({ n, type, onTypeChange, stepRefs }: { n: StepNumber; type: ActionType | ''; onTypeChange(next: ActionType | ''): void; stepRefs: StepNavigation['stepRefs'] }) {
  const body = n === 1 ? <StepDetails onTypeChange={onTypeChange} /> : n === 2 ? <StepType type={type} /> : <StepTags />;
  return (
    <section
      ref={(el) => {
        stepRefs.current[n] = el;
      }}
      aria-labelledby={`action-step-${n}-title`}
      className="flex flex-col gap-3"
      data-step={n}
    >
      <h3 id={`action-step-${n}-title`} className="text-sm font-semibold">
        {n}. {STEPS[n - 1]!.title}
      </h3>
      {body}
    </section>
  );
}

export function WizardFooter({ step, canCreate, canSave, saving, kind }: { step: StepNumber; canCreate: boolean; canSave: boolean; saving: boolean; kind: FormPaneKind }) {
  return (
    <footer className="flex justify-between border-t border-line pt-3">
      <CommandButton command={`${kind}.previous`} disabled={step === 1} />
      {step < 3 ? (
        <CommandButton command={`${kind}.continue`} variant="primary" />
      ) : canCreate ? (
        <CommandButton command={`${kind}.save`} variant="primary" disabled={!canSave}>
          {saving ? 'Saving…' : 'Save'}
        </CommandButton>
      ) : (
        <span />
      )}
    </footer>
  );
}
