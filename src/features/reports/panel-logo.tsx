import { FAIL_COLOR, PASS_COLOR } from '@/api/contracts/reports';

/** Small drawings named by a library panel's logo. */
const PATHS: Record<string, React.ReactNode> = {
  bullet: (
    <>
      <rect x={4} y={8} width={24} height={4} fill={PASS_COLOR} />
      <rect x={4} y={16} width={16} height={4} fill="#facc15" />
      <rect x={4} y={24} width={28} height={4} fill="#38bdf8" />
    </>
  ),
  force_field: (
    <>
      <rect x={6} y={8} width={12} height={6} fill={FAIL_COLOR} />
      <rect x={18} y={8} width={14} height={6} fill={PASS_COLOR} />
      <rect x={12} y={20} width={6} height={6} fill={FAIL_COLOR} />
      <rect x={18} y={20} width={10} height={6} fill={PASS_COLOR} />
    </>
  ),
  gauge: <path d="M6 28 A14 14 0 0 1 34 28" stroke={PASS_COLOR} strokeWidth={5} fill="none" />,
  bar: (
    <>
      <rect x={6} y={16} width={6} height={16} fill={PASS_COLOR} />
      <rect x={16} y={8} width={6} height={24} fill="#facc15" />
      <rect x={26} y={20} width={6} height={12} fill={FAIL_COLOR} />
    </>
  ),
  pie: <circle cx={20} cy={20} r={11} stroke={PASS_COLOR} strokeWidth={7} fill="none" strokeDasharray="45 70" />,
  radar: <polygon points="20,6 33,16 28,32 12,32 7,16" fill="#38bdf8" fillOpacity={0.4} stroke="#38bdf8" />,
  line: <polyline points="4,30 12,20 20,24 28,10 36,14" stroke={PASS_COLOR} strokeWidth={2} fill="none" />,
  block_rate: (
    <>
      <line x1={4} x2={36} y1={14} y2={14} stroke={FAIL_COLOR} strokeDasharray="3 2" />
      <circle cx={10} cy={10} r={3} fill={PASS_COLOR} />
      <circle cx={20} cy={22} r={3} fill={FAIL_COLOR} />
      <circle cx={30} cy={8} r={3} fill={PASS_COLOR} />
    </>
  ),
  tree_map: (
    <>
      <rect x={4} y={6} width={18} height={28} fill={PASS_COLOR} />
      <rect x={23} y={6} width={13} height={14} fill={FAIL_COLOR} />
      <rect x={23} y={21} width={13} height={13} fill={PASS_COLOR} opacity={0.6} />
    </>
  ),
};

export function PanelLogo({ logo }: { logo: string }) {
  return (
    <svg viewBox="0 0 40 40" width={40} height={40} aria-hidden className="shrink-0 rounded bg-raised">
      {PATHS[logo] ?? <rect x={8} y={8} width={24} height={24} fill="#64748b" />}
    </svg>
  );
}
