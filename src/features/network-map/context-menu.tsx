import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Point } from '@/api/contracts/topology';
import { flash } from '@/ui/toasts';
import { helpHref } from './help-link';

export interface MenuTarget {
  key: string;
  name: string;
  kind: 'actor' | 'device';
  address: string;
  help: string;
  /** Actors: the actor's page. */
  href: string | null;
  at: Point;
}

const ITEM = 'block w-full rounded px-3 py-1.5 text-left text-sm text-ink hover:bg-line/60 focus:bg-accent/20 focus:outline-none';

/**
 * JOB-026: the menu of an actor or device (right-click, Shift+F10 or the ContextMenu key): open the
 * actor, copy its address, centre the map on it (Lens), help in a new tab. Arrow keys move, Escape closes.
 */
export function MapContextMenu({ target, onClose, onLens }: { target: MenuTarget; onClose(): void; onLens(key: string): void }) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const away = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as globalThis.Node)) onClose();
    };
    window.addEventListener('mousedown', away, true);
    return () => window.removeEventListener('mousedown', away, true);
  }, [target, onClose]);

  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    const move = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (move) items[(i + move + items.length) % items.length]?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else if (e.key === 'Escape' || e.key === 'Tab') onClose();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const copy = async () => {
    onClose();
    try {
      await navigator.clipboard.writeText(target.address);
      flash('notice', `Copied ${target.address}`);
    } catch {
      flash('alert', 'The browser did not allow copying to the clipboard; select the text and copy it.');
    }
  };

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`Actions for ${target.name}`}
      onKeyDown={onKeyDown}
      style={{ left: target.at.x, top: target.at.y }}
      className="fixed z-50 min-w-52 rounded-md border border-line bg-raised p-1 shadow-xl shadow-black/50"
    >
      <div className="truncate px-3 pb-1 pt-0.5 text-xs text-muted">
        {target.kind === 'actor' ? 'Actor' : 'Device'} {target.name}
      </div>
      {target.href && (
        <a role="menuitem" href={target.href} className={ITEM} onClick={onClose}>
          Open actor
        </a>
      )}
      <button role="menuitem" type="button" className={ITEM} disabled={!target.address} onClick={() => void copy()}>
        Copy address{target.address ? ` (${target.address})` : ''}
      </button>
      <button role="menuitem" type="button" className={ITEM} onClick={() => { onClose(); onLens(target.key); }}>
        Centre in Lens
      </button>
      <a role="menuitem" href={helpHref(target.help)} target="_blank" rel="noopener noreferrer" className={ITEM} onClick={onClose}>
        Help
      </a>
    </div>
  );
}
