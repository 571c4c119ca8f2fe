/**
 * An ordered list of steps (socket and website steps, cloud scripts): add, remove (never the last),
 * collapse or expand, and reorder by dragging or with Move buttons, only while every step is collapsed.
 * A collapsed step with errors is marked invalid.
 */
import { useState, type ReactNode } from 'react';
import { get, useFieldArray, useFormContext, useFormState, type FieldArray, type FieldArrayPath } from 'react-hook-form';
import { Button } from '@/ui/button';
import type { ActionFormValues } from './form-model';

export type StepArrayName = Extract<FieldArrayPath<ActionFormValues>, 'socket_action.steps' | 'website_action.steps' | 'cloud_action.scripts'>;

interface StepListProps<N extends StepArrayName> {
  name: N;
  noun: string;
  title(index: number, count: number): string;
  summary(index: number): string;
  children(index: number): ReactNode;
  newItem(count: number): FieldArray<ActionFormValues, N>;
  /** Where a new step goes (default: at the end). */
  insertIndex?(count: number): number;
  /** After an add, a remove or a move (cloud recomputes the Setup and Clean Up script types). */
  onChanged?(): void;
  disabled?: boolean;
}

export function StepList<N extends StepArrayName>({ name, noun, title, summary, children, newItem, insertIndex, onChanged, disabled }: StepListProps<N>) {
  const { control } = useFormContext<ActionFormValues>();
  const { fields, insert, remove, move } = useFieldArray<ActionFormValues, N>({ control, name });
  const { errors } = useFormState<ActionFormValues>({ control, name });
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const allCollapsed = fields.length > 0 && fields.every((f) => collapsed.has(f.id));
  const listError = (get(errors, name) as { message?: string } | undefined)?.message;

  const setAll = (c: boolean) => setCollapsed(c ? new Set(fields.map((f) => f.id)) : new Set());
  const toggle = (id: string) => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const doMove = (from: number, to: number) => {
    if (to < 0 || to >= fields.length || from === to) return;
    move(from, to);
    onChanged?.();
  };

  return (
    <div className="flex flex-col gap-2" role="group" aria-label={`${noun}s`}>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-muted">
          {fields.length} {noun.toLowerCase()}
          {fields.length === 1 ? '' : 's'}
          {allCollapsed ? ' · drag to reorder' : fields.length > 1 ? ' · collapse all steps to reorder them' : ''}
        </span>
        <div className="flex gap-1">
          <Button variant="ghost" onClick={() => setAll(!allCollapsed)}>
            {allCollapsed ? 'Expand All' : 'Collapse All'}
          </Button>
          <Button
            disabled={disabled}
            onClick={() => {
              insert(insertIndex ? insertIndex(fields.length) : fields.length, newItem(fields.length));
              onChanged?.();
            }}
          >
            + Add {noun}
          </Button>
        </div>
      </div>
      {listError && (
        <span className="text-xs text-red-400" data-field-error>
          {listError}
        </span>
      )}
      <ol className="flex flex-col gap-2">
        {fields.map((f, i) => {
          const isCollapsed = collapsed.has(f.id);
          const hasError = !!get(errors, `${name}.${i}`);
          const invalid = isCollapsed && hasError;
          return (
            <li
              key={f.id}
              data-step-index={i}
              draggable={allCollapsed && !disabled}
              onDragStart={(e) => {
                setDragFrom(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(i));
              }}
              onDragOver={(e) => {
                if (dragFrom === null) return;
                e.preventDefault();
                setDropAt(i);
              }}
              onDrop={(e) => {
                e.preventDefault();
                if (dragFrom !== null) doMove(dragFrom, i);
                setDragFrom(null);
                setDropAt(null);
              }}
              onDragEnd={() => {
                setDragFrom(null);
                setDropAt(null);
              }}
              className={`rounded border ${invalid ? 'border-red-500' : 'border-line'} ${dropAt === i && dragFrom !== i ? 'ring-2 ring-accent' : ''} ${allCollapsed ? 'cursor-grab' : ''}`}
            >
              <div className="flex items-center gap-2 bg-raised px-2 py-1">
                {allCollapsed && (
                  <span aria-hidden="true" className="text-muted" title="Drag to reorder">
                    ⠿
                  </span>
                )}
                <button type="button" className="flex min-w-0 flex-1 items-center gap-1.5 text-left text-sm" aria-expanded={!isCollapsed} onClick={() => toggle(f.id)}>
                  <span aria-hidden="true" className="inline-block w-3 text-muted">
                    {isCollapsed ? '▸' : '▾'}
                  </span>
                  <span className="font-semibold">{title(i, fields.length)}</span>
                  {isCollapsed && <span className="truncate text-xs text-muted">{summary(i)}</span>}
                  {invalid && (
                    <span className="ml-1 rounded bg-red-500/15 px-1.5 text-2xs font-semibold text-red-500" role="status">
                      Invalid
                    </span>
                  )}
                </button>
                {allCollapsed && !disabled && (
                  <>
                    <Button variant="ghost" aria-label={`Move ${title(i, fields.length)} up`} disabled={i === 0} onClick={() => doMove(i, i - 1)}>
                      ↑
                    </Button>
                    <Button variant="ghost" aria-label={`Move ${title(i, fields.length)} down`} disabled={i === fields.length - 1} onClick={() => doMove(i, i + 1)}>
                      ↓
                    </Button>
                  </>
                )}
                <Button
                  variant="ghost"
                  aria-label={`Remove ${title(i, fields.length)}`}
                  disabled={disabled || fields.length <= 1}
                  title={fields.length <= 1 ? `At least one ${noun.toLowerCase()} must remain` : undefined}
                  onClick={() => {
                    remove(i);
                    onChanged?.();
                  }}
                >
                  Remove
                </Button>
              </div>
              <div className={isCollapsed ? 'hidden' : 'flex flex-col gap-3 p-3'}>{children(i)}</div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
