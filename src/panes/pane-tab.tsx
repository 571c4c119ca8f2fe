import { useEffect, useRef, useState, type PointerEvent, type MouseEvent } from 'react';
import type { IDockviewPanelHeaderProps } from 'dockview-react';
import { useWorkbench } from './pane-context';

/**
 * The workbench's tab. dockview's own React tab names its close button "Close tab"; this one names it
 * after the pane ("Close Users") and routes close (button or middle click) through the controller, so
 * a pane can ask first, e.g. about unsaved changes. Same classes as dockview's tab, so its theme applies.
 */
export function PaneTab({ api }: IDockviewPanelHeaderProps) {
  const { controller } = useWorkbench();
  const [title, setTitle] = useState(api.title ?? '');
  const middle = useRef(false);
  useEffect(() => {
    setTitle(api.title ?? '');
    const sub = api.onDidTitleChange((e) => setTitle(e.title));
    return () => sub.dispose();
  }, [api]);
  const close = (event: MouseEvent | PointerEvent) => {
    event.preventDefault();
    void controller.requestClose(api.id);
  };
  return (
    <div
      data-testid="dockview-dv-default-tab"
      className="dv-default-tab"
      onPointerDown={(e: PointerEvent<HTMLDivElement>) => {
        middle.current = e.button === 1;
      }}
      onPointerUp={(e: PointerEvent<HTMLDivElement>) => {
        if (middle.current && e.button === 1) {
          middle.current = false;
          close(e);
        }
      }}
      onPointerLeave={() => {
        middle.current = false;
      }}
    >
      <span className="dv-default-tab-content">{title}</span>
      <button type="button" className="dv-default-tab-action" aria-label={`Close ${title}`.trim()} onPointerDown={(e) => e.preventDefault()} onClick={close}>
        <svg height="11" width="11" viewBox="0 0 28 28" aria-hidden="true" focusable="false" className="dv-svg">
          <path d="M2.1 27.3L0 25.2L11.55 13.65L0 2.1L2.1 0L13.65 11.55L25.2 0L27.3 2.1L15.75 13.65L27.3 25.2L25.2 27.3L13.65 15.75L2.1 27.3Z" />
        </svg>
      </button>
    </div>
  );
}
