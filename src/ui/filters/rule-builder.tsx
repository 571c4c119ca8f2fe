import { useEffect, useRef, type KeyboardEvent } from 'react';
import {
  FILTER_CONFIGS,
  OPERATOR_LABELS,
  findField,
  isListSelector,
  type BuilderRule,
  type FilterCondition,
  type FilterFieldConfig,
  type FilterTarget,
  type RuleErrors,
} from '@/api/contracts/filters';
import { Button } from '@/ui/button';
import { Dropdown, PlainText, RangeInput, TextList, TextareaList, Typeahead } from './value-selectors';

const select = 'rounded border bg-surface px-1.5 py-1 text-sm';

/** The defaults of a field: its first operator and an empty value of its kind. */
function withField(c: FilterCondition, field: FilterFieldConfig | null): FilterCondition {
  return {
    match_object: c.match_object,
    match_field: field?.match_field ?? '',
    operator: field?.operators[0] ?? '',
    value: field && isListSelector(field.selector_type) ? [] : '',
  };
}

/** A new condition (or one whose match object changed): a single field is auto-selected, the first operator is the default. */
export function newCondition(target: FilterTarget, matchObject?: string): FilterCondition {
  const objects = FILTER_CONFIGS[target];
  const obj = matchObject !== undefined ? objects.find((o) => o.match_object === matchObject) : objects.length === 1 ? objects[0] : undefined;
  const base: FilterCondition = { match_object: obj?.match_object ?? '', match_field: '', operator: '', value: '' };
  return withField(base, obj && obj.match_fields.length === 1 ? obj.match_fields[0]! : null);
}

interface Props {
  target: FilterTarget;
  value: BuilderRule;
  onChange(next: BuilderRule): void;
  /** Shown after an attempt to apply (validation texts in place). */
  errors: RuleErrors | null;
  idPrefix: string;
}

function ValueSelector({ field, c, onChange, label, invalid, describedBy }: { field: FilterFieldConfig; c: FilterCondition; onChange(v: FilterCondition['value']): void; label: string; invalid: boolean; describedBy: string | undefined }) {
  const common = { field, matchObject: c.match_object, label, invalid, describedBy };
  const text = typeof c.value === 'string' ? c.value : c.value.join(', ');
  const list = Array.isArray(c.value) ? c.value : c.value ? [c.value] : [];
  switch (field.selector_type) {
    case 'comma_number_range':
      return <RangeInput {...common} value={text} onChange={onChange} />;
    case 'plain_text':
      return <PlainText {...common} value={text} onChange={onChange} />;
    case 'dropdown':
      return <Dropdown {...common} value={text} onChange={onChange} />;
    case 'text_list':
      return <TextList {...common} value={list} onChange={onChange} />;
    case 'textarea_list':
      return <TextareaList {...common} value={list} onChange={onChange} />;
    case 'typeahead':
      return <Typeahead {...common} value={list} onChange={onChange} />;
  }
}

/**
 * The filter-rule builder (section 2): rules joined by 'or', each holding conditions joined by 'and'.
 * Every control is a native control in tab order; Alt+ArrowDown / Alt+ArrowUp move between conditions.
 */
export function RuleBuilder({ target, value, onChange, errors, idPrefix }: Props) {
  const objects = FILTER_CONFIGS[target];
  const root = useRef<HTMLDivElement>(null);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    root.current?.querySelector<HTMLElement>(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const setGroup = (gi: number, conditions: FilterCondition[]) => onChange({ ...value, conditions: value.conditions.map((g, i) => (i === gi ? { ...g, conditions } : g)) });
  const setCondition = (gi: number, ci: number, c: FilterCondition) => setGroup(gi, value.conditions[gi]!.conditions.map((x, i) => (i === ci ? c : x)));
  const addRule = () => {
    focusNext.current = `[data-cond="${value.conditions.length}-0"] select, [data-cond="${value.conditions.length}-0"] input`;
    onChange({ ...value, conditions: [...value.conditions, { operator: 'and', conditions: [newCondition(target)] }] });
  };
  const addCondition = (gi: number) => {
    focusNext.current = `[data-cond="${gi}-${value.conditions[gi]!.conditions.length}"] select`;
    setGroup(gi, [...value.conditions[gi]!.conditions, newCondition(target)]);
  };
  const removeCondition = (gi: number, ci: number) => {
    focusNext.current = ci > 0 ? `[data-cond="${gi}-${ci - 1}"] select` : `[data-add-condition="${gi}"]`;
    setGroup(gi, value.conditions[gi]!.conditions.filter((_, i) => i !== ci));
  };
  const removeRule = (gi: number) => {
    focusNext.current = '[data-add-rule]';
    onChange({ ...value, conditions: value.conditions.filter((_, i) => i !== gi) });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!e.altKey || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const rows = [...(root.current?.querySelectorAll<HTMLElement>('[data-cond]') ?? [])];
    const at = rows.findIndex((r) => r.contains(document.activeElement));
    const next = rows[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.querySelector<HTMLElement>('select, input, textarea')?.focus();
    }
  };

  return (
    <div ref={root} className="flex flex-col gap-2" onKeyDown={onKeyDown} role="group" aria-label="Filter rules">
      {value.conditions.length === 0 && <p className="text-xs text-muted">No rules: every row is shown.</p>}
      {value.conditions.map((g, gi) => {
        const ruleError = errors?.rules[gi] ?? null;
        return (
          <div key={gi} className="flex flex-col gap-1">
            {gi > 0 && <div className="text-2xs font-semibold tracking-wide text-muted uppercase">or</div>}
            <fieldset className={`rounded border p-2 ${ruleError ? 'border-red-500' : 'border-line'}`} aria-label={`Rule ${gi + 1}`}>
              <legend className="px-1 text-xs text-muted">Rule {gi + 1}</legend>
              {ruleError && (
                <p className="mb-1 text-xs text-red-500" role="alert">
                  {ruleError}
                </p>
              )}
              {g.conditions.map((c, ci) => {
                const obj = objects.find((o) => o.match_object === c.match_object);
                const field = findField(target, c.match_object, c.match_field);
                const err = errors?.conditions[gi]?.[ci] ?? null;
                const errId = `${idPrefix}-err-${gi}-${ci}`;
                const where = `rule ${gi + 1}, condition ${ci + 1}`;
                return (
                  <div key={ci} data-cond={`${gi}-${ci}`} className="mb-1 flex flex-wrap items-start gap-1.5">
                    <span className="w-8 pt-1 text-right text-2xs text-muted uppercase">{ci > 0 ? 'and' : ''}</span>
                    <select
                      className={`${select} ${err && !c.match_object ? 'border-red-500' : 'border-line'}`}
                      aria-label={`Match object, ${where}`}
                      value={c.match_object}
                      onChange={(e) => setCondition(gi, ci, newCondition(target, e.target.value))}
                    >
                      {objects.length !== 1 && <option value="">Object…</option>}
                      {objects.map((o) => (
                        <option key={o.match_object} value={o.match_object}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                    <select
                      className={`${select} ${err && !c.match_field ? 'border-red-500' : 'border-line'}`}
                      aria-label={`Match field, ${where}`}
                      value={c.match_field}
                      disabled={!obj}
                      onChange={(e) => setCondition(gi, ci, withField(c, obj?.match_fields.find((f) => f.match_field === e.target.value) ?? null))}
                    >
                      {(obj?.match_fields.length ?? 0) !== 1 && <option value="">Field…</option>}
                      {obj?.match_fields.map((f) => (
                        <option key={f.match_field} value={f.match_field}>
                          {f.label}
                        </option>
                      ))}
                    </select>
                    <select
                      className={`${select} border-line`}
                      aria-label={`Operator, ${where}`}
                      value={c.operator}
                      disabled={!field}
                      onChange={(e) => setCondition(gi, ci, { ...c, operator: e.target.value })}
                    >
                      {!field && <option value="">Operator…</option>}
                      {field?.operators.map((op) => (
                        <option key={op} value={op}>
                          {OPERATOR_LABELS[op]}
                        </option>
                      ))}
                    </select>
                    <div className="flex flex-col gap-0.5">
                      {field ? (
                        <ValueSelector
                          key={`${c.match_object}.${c.match_field}`}
                          field={field}
                          c={c}
                          onChange={(v) => setCondition(gi, ci, { ...c, value: v })}
                          label={`Value, ${where}`}
                          invalid={!!err}
                          describedBy={err ? errId : undefined}
                        />
                      ) : (
                        <input className={`${select} w-52 border-line`} disabled aria-label={`Value, ${where}`} placeholder="Choose a field first" />
                      )}
                      {err && (
                        <span id={errId} className="text-xs text-red-500" role="alert">
                          {err}
                        </span>
                      )}
                    </div>
                    <Button variant="ghost" aria-label={`Remove condition ${ci + 1} of rule ${gi + 1}`} title="Remove condition" onClick={() => removeCondition(gi, ci)}>
                      ✕
                    </Button>
                  </div>
                );
              })}
              <div className="flex gap-2 pl-9">
                <Button data-add-condition={gi} onClick={() => addCondition(gi)}>
                  + Add condition
                </Button>
                <Button variant="ghost" onClick={() => removeRule(gi)} aria-label={`Remove rule ${gi + 1}`}>
                  Remove rule
                </Button>
              </div>
            </fieldset>
          </div>
        );
      })}
      <div>
        <Button data-add-rule onClick={addRule}>
          + Add rule
        </Button>
      </div>
    </div>
  );
}
