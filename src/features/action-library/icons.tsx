import type { ReactNode } from 'react';
import { RESTRICTION_LABELS } from './format';
import { type FileRestriction } from '@/api/contracts/vocabulary';

interface IconProps {
  className?: string;
  title?: string;
}

function Svg({ className = '', title, children }: IconProps & { children: ReactNode }) {
  // A size given in className wins; otherwise the icon is text-sized.
  const size = /(^|\s)(h|w|size)-/.test(className) ? '' : 'h-3.5 w-3.5';
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" className={`inline-block shrink-0 ${size} ${className}`} role={title ? 'img' : undefined} aria-label={title} aria-hidden={title ? undefined : true}>
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}

/** Requires a Protected Theater actor. */
export const ShieldIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M8 1.5 2.5 3.5v4c0 3.2 2.3 5.8 5.5 7 3.2-1.2 5.5-3.8 5.5-7v-4L8 1.5Z" />
    <path d="m5.8 8 1.6 1.6L10.4 6.5" />
  </Svg>
);

/** Monitors network connections. */
export const NetworkIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="8" cy="3" r="1.6" />
    <circle cx="3" cy="13" r="1.6" />
    <circle cx="13" cy="13" r="1.6" />
    <path d="M8 4.6v3.4M8 8 3.9 11.6M8 8l4.1 3.6" />
  </Svg>
);

export const WarningIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M8 1.8 1.3 13.5h13.4L8 1.8Z" />
    <path d="M8 6v3.6M8 11.6v.1" />
  </Svg>
);

export const BugIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="5" y="5" width="6" height="8.5" rx="3" />
    <path d="M8 5V3.5M6 3.5 5 2M10 3.5l1-1.5M5 8H2.5M13.5 8H11M5 11H3M13 11h-2M8 7.5v5" />
  </Svg>
);

export const LockIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3.5" y="7" width="9" height="7" rx="1.2" />
    <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
  </Svg>
);

export const CheckIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m3 8.5 3.2 3L13 4.5" />
  </Svg>
);

/** The file restriction icon: a warning for pending approval, a bug for restricted malicious (ACT-057). */
export function RestrictionBadge({ restriction }: { restriction: FileRestriction }) {
  if (restriction === 'pending_approval')
    return (
      <span className="inline-flex items-center gap-1 text-amber-500" data-restriction={restriction}>
        <WarningIcon title={RESTRICTION_LABELS[restriction]} />
        <span>{RESTRICTION_LABELS[restriction]}</span>
      </span>
    );
  if (restriction === 'restricted_malicious')
    return (
      <span className="inline-flex items-center gap-1 text-red-500" data-restriction={restriction}>
        <BugIcon title={RESTRICTION_LABELS[restriction]} />
        <span>{RESTRICTION_LABELS[restriction]}</span>
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1 text-emerald-500" data-restriction={restriction}>
      <CheckIcon />
      <span>{RESTRICTION_LABELS[restriction]}</span>
    </span>
  );
}
