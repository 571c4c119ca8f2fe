import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection, MenuSeparator } from '@headlessui/react';
import type { IntegrationTemplate } from '@/api/contracts/integrations';
import type { ThreatIntelTemplate } from '@/api/contracts/threat-intel';
import { runFrom, usePaneCommandContext } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { versionFlags } from './menu-state';

/**
 * The integrations menu (JOB-029): the integrations to add with their logo, name and version flags;
 * choosing one runs integrations.add, which opens its creation modal. Below, the threat-intel kinds
 * (threatIntel.add, whose modal loads /threat_intel_integrations/new.js). Disabled, with the reason as
 * its tooltip, while integrations cannot be added.
 */
export function AddIntegrationMenu({ items, threatIntel = [], blocked }: { items: readonly IntegrationTemplate[]; threatIntel?: readonly ThreatIntelTemplate[]; blocked: string | null }) {
  const { ctx, opts } = usePaneCommandContext();
  if (!commands.state('integrations.add', { integration_type: 'webhook' }, ctx).visible) return null;
  return (
    <Menu>
      <MenuButton
        disabled={!!blocked}
        title={blocked ?? 'Add an integration'}
        className="inline-flex items-center gap-1 rounded border border-transparent bg-accent px-2.5 py-1 text-sm font-semibold text-slate-950 hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
      >
        Add Integration <span aria-hidden="true">▾</span>
      </MenuButton>
      <MenuItems anchor="bottom end" aria-label="Integrations to add" className="z-[1055] min-w-72 rounded-md border border-line bg-panel p-1 text-sm text-ink shadow-xl focus:outline-none">
        {items.map((t) => {
          const flags = versionFlags(t);
          return (
            <MenuItem key={t.type}>
              <button
                type="button"
                onClick={() => runFrom(commands, 'integrations.add', { integration_type: t.type }, 'menu', opts)}
                className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left data-[focus]:bg-accent/15"
              >
                <img src={t.logo_path} alt="" className="h-4 w-[70px] shrink-0" />
                <span className="flex-1">{t.name}</span>
                <span className="text-2xs text-muted">v{t.versions[t.versions.length - 1]?.version ?? '–'}</span>
                {flags.map((f) => (
                  <span key={f} className="rounded border border-line px-1 text-2xs text-muted">
                    {f}
                  </span>
                ))}
              </button>
            </MenuItem>
          );
        })}
        {threatIntel.length > 0 && (
          <>
            <MenuSeparator className="my-1 h-px bg-line" />
            <MenuSection aria-label="Threat intel">
              <MenuHeading className="px-2 py-1 text-2xs font-semibold tracking-wide text-muted uppercase">Threat intel</MenuHeading>
              {threatIntel.map((t) => (
                <MenuItem key={t.type}>
                  <button
                    type="button"
                    onClick={() => runFrom(commands, 'threatIntel.add', { integration_type: t.type }, 'menu', opts)}
                    className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left data-[focus]:bg-accent/15"
                  >
                    <img src={t.logo_path} alt="" className="h-4 w-[70px] shrink-0" />
                    <span className="flex-1">{t.name}</span>
                  </button>
                </MenuItem>
              ))}
            </MenuSection>
          </>
        )}
      </MenuItems>
    </Menu>
  );
}
