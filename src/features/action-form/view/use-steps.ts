/** Which step the form shows, wizard or all steps, and moving between them (focus lands in the step's first field). */
import { useCallback, useEffect, useRef, useState } from 'react';
import { stepOfField, type StepNumber } from '../form-model';

export type FormView = 'wizard' | 'all';

export interface StepNavigation {
  view: FormView;
  step: StepNumber;
  /** The latest step, for code that runs outside a render (drafts). */
  stepRef: { readonly current: StepNumber };
  stepRefs: { current: Record<StepNumber, HTMLElement | null> };
  setStep(n: StepNumber): void;
  goTo(n: StepNumber): void;
  next(): void;
  previous(): void;
  toggleView(): void;
  /** Goes to the first step that holds one of these field paths. */
  showFirstError(paths: string[]): void;
}

export function useSteps(initialView: FormView): StepNavigation {
  const [view, setView] = useState<FormView>(initialView);
  const [step, setStep] = useState<StepNumber>(1);
  const stepRefs = useRef<Record<StepNumber, HTMLElement | null>>({ 1: null, 2: null, 3: null });
  const stepRef = useRef(step);
  stepRef.current = step;

  const moved = useRef(false);
  const goTo = useCallback(
    (n: StepNumber) => {
      moved.current = true;
      setStep(n);
      if (view === 'all') stepRefs.current[n]?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    },
    [view],
  );
  // Moving between wizard steps puts the focus on the step's first field (keyboard users land in it).
  useEffect(() => {
    if (!moved.current || view !== 'wizard') return;
    moved.current = false;
    const el = stepRefs.current[step]?.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled]), .cm-content, button:not([disabled])');
    el?.focus();
  }, [step, view]);

  return {
    view,
    step,
    stepRef,
    stepRefs,
    setStep,
    goTo,
    next: () => {
      moved.current = true;
      setStep((s) => (s < 3 ? ((s + 1) as StepNumber) : s));
    },
    previous: () => {
      moved.current = true;
      setStep((s) => (s > 1 ? ((s - 1) as StepNumber) : s));
    },
    toggleView: () => setView((v) => (v === 'wizard' ? 'all' : 'wizard')),
    showFirstError: (paths) => {
      const first = Math.min(...paths.map(stepOfField)) as StepNumber;
      if (Number.isFinite(first)) goTo(first);
    },
  };
}
