/**
 * An accessible tree select for the dimension pickers: a button shows the chosen node's path; its
 * popup has a filter box and a tree (arrow keys move, Right opens, Left closes, Enter chooses, Escape closes).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DimensionTreeNode } from '@/api/contracts/action-form';
import { inputClass, labelClass, requiredLabelClass } from './controls';

export interface FlatNode {
  node: DimensionTreeNode;
  depth: number;
  parentId: number | null;
  path: string[];
  hasChildren: boolean;
}

/** Every node below the root, depth first, with its path of names. */
export function flattenTree(root: DimensionTreeNode): FlatNode[] {
  const out: FlatNode[] = [];
  const walk = (n: DimensionTreeNode, depth: number, parentId: number | null, path: string[]) => {
    for (const c of n.children) {
      const p = [...path, c.name];
      out.push({ node: c, depth, parentId, path: p, hasChildren: c.children.length > 0 });
      walk(c, depth + 1, c.id, p);
    }
  };
  walk(root, 0, null, []);
  return out;
}

/** Nodes to show: with a filter, matches and their ancestors; without, the children of open nodes. */
export function visibleNodes(flat: FlatNode[], expanded: ReadonlySet<number>, filter: string): FlatNode[] {
  const q = filter.trim().toLowerCase();
  if (q) {
    const keep = new Set<number>();
    const byId = new Map(flat.map((f) => [f.node.id, f]));
    for (const f of flat) {
      if (f.node.name.toLowerCase().includes(q)) {
        let cur: FlatNode | undefined = f;
        while (cur) {
          keep.add(cur.node.id);
          cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
        }
      }
    }
    return flat.filter((f) => keep.has(f.node.id));
  }
  const open = (f: FlatNode, byId: Map<number, FlatNode>): boolean => f.parentId === null || (expanded.has(f.parentId) && open(byId.get(f.parentId)!, byId));
  const byId = new Map(flat.map((f) => [f.node.id, f]));
  return flat.filter((f) => open(f, byId));
}

interface TreeSelectProps {
  label: string;
  tree: DimensionTreeNode;
  value: number | null;
  onChange(id: number | null): void;
  error?: string | undefined;
  disabled?: boolean;
  required?: boolean;
}

export function TreeSelect({ label, tree, value, onChange, error, disabled, required }: TreeSelectProps) {
  const id = useId();
  const flat = useMemo(() => flattenTree(tree), [tree]);
  const selected = flat.find((f) => f.node.id === value);
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set());
  const [active, setActive] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const shown = useMemo(() => visibleNodes(flat, expanded, filter), [flat, expanded, filter]);

  const openPopup = () => {
    if (disabled) return;
    // Open the chosen node's ancestors so it is visible and active.
    const ex = new Set(expanded);
    let cur = selected;
    while (cur && cur.parentId !== null) {
      ex.add(cur.parentId);
      cur = flat.find((f) => f.node.id === cur!.parentId);
    }
    setExpanded(ex);
    setFilter('');
    setActive(selected?.node.id ?? flat[0]?.node.id ?? null);
    setOpen(true);
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const choose = (nodeId: number) => {
    onChange(nodeId);
    close();
  };

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  useEffect(() => {
    if (open && active !== null) document.getElementById(`${id}-n${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active, id]);

  const onKey = (e: React.KeyboardEvent) => {
    const i = shown.findIndex((f) => f.node.id === active);
    const cur = shown[i];
    const move = (j: number) => {
      const next = shown[Math.max(0, Math.min(shown.length - 1, j))];
      if (next) setActive(next.node.id);
    };
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        move(i + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        move(i - 1);
        break;
      case 'Home':
        e.preventDefault();
        move(0);
        break;
      case 'End':
        e.preventDefault();
        move(shown.length - 1);
        break;
      case 'ArrowRight':
        if (cur?.hasChildren && !filter) {
          e.preventDefault();
          if (!expanded.has(cur.node.id)) setExpanded(new Set(expanded).add(cur.node.id));
          else move(i + 1);
        }
        break;
      case 'ArrowLeft':
        if (cur && !filter) {
          e.preventDefault();
          if (cur.hasChildren && expanded.has(cur.node.id)) {
            const ex = new Set(expanded);
            ex.delete(cur.node.id);
            setExpanded(ex);
          } else if (cur.parentId !== null) setActive(cur.parentId);
        }
        break;
      case 'Enter':
        e.preventDefault();
        if (cur) choose(cur.node.id);
        break;
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        close();
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  const toggle = (nodeId: number) => {
    const ex = new Set(expanded);
    if (ex.has(nodeId)) ex.delete(nodeId);
    else ex.add(nodeId);
    setExpanded(ex);
  };

  return (
    <div className="relative flex flex-col gap-1" ref={rootRef}>
      <span id={`${id}-label`} className={required ? requiredLabelClass : labelClass}>
        {label}
      </span>
      <div className="flex gap-1">
        <button
          ref={buttonRef}
          type="button"
          disabled={disabled}
          aria-haspopup="tree"
          aria-expanded={open}
          aria-labelledby={`${id}-label ${id}-value`}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
          onClick={() => (open ? close() : openPopup())}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && !open) {
              e.preventDefault();
              openPopup();
            }
          }}
          className={`${inputClass(!!error)} flex flex-1 items-center justify-between text-left`}
        >
          <span id={`${id}-value`} className={selected ? '' : 'text-muted'}>
            {selected ? selected.path.join(' › ') : 'Select…'}
          </span>
          <span aria-hidden="true" className="text-muted">
            ▾
          </span>
        </button>
        {selected && !disabled && (
          <button type="button" className="rounded px-1.5 text-muted hover:text-ink" aria-label={`Clear ${label}`} onClick={() => onChange(null)}>
            ×
          </button>
        )}
      </div>
      {error && (
        <span id={`${id}-error`} className="text-xs text-red-400" data-field-error>
          {error}
        </span>
      )}
      {open && (
        <div className="absolute top-full left-0 z-30 mt-1 w-full min-w-64 rounded border border-line bg-panel shadow-xl" onKeyDown={onKey}>
          <input
            autoFocus
            aria-label={`Filter ${label}`}
            role="combobox"
            aria-expanded="true"
            aria-controls={`${id}-tree`}
            aria-activedescendant={active !== null ? `${id}-n${active}` : undefined}
            placeholder="Type to filter"
            className="w-full border-b border-line bg-surface px-2 py-1.5 text-sm outline-none"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              const first = visibleNodes(flat, expanded, e.target.value).find((f) => f.node.name.toLowerCase().includes(e.target.value.trim().toLowerCase()));
              setActive(first?.node.id ?? null);
            }}
          />
          <ul id={`${id}-tree`} role="tree" aria-label={label} className="max-h-64 overflow-auto py-1">
            {shown.length === 0 && <li className="px-3 py-1 text-muted">No match</li>}
            {shown.map((f) => {
              const isOpen = !!filter || expanded.has(f.node.id);
              return (
                <li
                  key={f.node.id}
                  id={`${id}-n${f.node.id}`}
                  role="treeitem"
                  aria-level={f.depth + 1}
                  aria-selected={f.node.id === value}
                  aria-expanded={f.hasChildren ? isOpen : undefined}
                  className={`flex cursor-pointer items-center gap-1 py-0.5 pr-2 text-sm ${f.node.id === active ? 'bg-accent/20' : ''} ${f.node.id === value ? 'font-semibold text-accent' : ''}`}
                  style={{ paddingLeft: `${8 + f.depth * 16}px` }}
                  onMouseEnter={() => setActive(f.node.id)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => choose(f.node.id)}
                >
                  {f.hasChildren ? (
                    <span
                      aria-hidden="true"
                      className="inline-block w-4 text-center text-muted"
                      onClick={(e) => {
                        e.stopPropagation();
                        if (!filter) toggle(f.node.id);
                      }}
                    >
                      {isOpen ? '▾' : '▸'}
                    </span>
                  ) : (
                    <span className="inline-block w-4" />
                  )}
                  {f.node.name}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
