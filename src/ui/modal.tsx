import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Without onClose the modal cannot be dismissed by Escape or an outside click (e.g. Session Timeout). */
  onClose?: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const SIZE = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-4xl' };

export function Modal({ open, title, onClose, children, footer, size = 'md' }: ModalProps) {
  return (
    <Dialog open={open} onClose={onClose ?? (() => {})} className="relative z-[1050]">
      <div className="fixed inset-0 bg-black/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-[12vh]">
        <DialogPanel className={`w-full ${SIZE[size]} rounded-lg border border-line bg-panel text-ink shadow-2xl`}>
          <div className="flex items-center justify-between border-b border-line px-4 py-2.5">
            <DialogTitle className="text-base font-semibold">{title}</DialogTitle>
            {onClose && (
              <button type="button" aria-label="Close" className="rounded px-1.5 text-lg leading-none text-muted hover:text-ink" onClick={onClose}>
                ×
              </button>
            )}
          </div>
          <div className="px-4 py-3">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-line px-4 py-2.5">{footer}</div>}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
