import type { ReactNode } from 'react';
import { LIBRARY_LIMITS } from '@/api/contracts/library';

/**
 * The slide transition wrapper (monitors-actors-reporting.md section 2; MON-177 "slide transition
 * 600 ms"): whenever `slideKey` changes (another content list item is shown), its content slides in
 * from the right over 600 ms. Users who ask for reduced motion get no animation (styles.css).
 */
export function SlideTransition({ slideKey, children, className = '' }: { slideKey: string | number | null; children: ReactNode; className?: string }) {
  return (
    <div key={slideKey ?? ''} data-slide-key={slideKey ?? ''} className={`vigil-slide-in ${className}`} style={{ animationDuration: `${LIBRARY_LIMITS.slideTransitionMs}ms` }}>
      {children}
    </div>
  );
}
