import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { commands, defineCommand } from '@/commands/registry';
import { scriptsQuery } from './api';

/** One palette entry per saved script: 'Run script: <name>' opens it in the Scripts pane and runs it. */
export function SavedScriptCommands() {
  const { data } = useQuery({ ...scriptsQuery(), staleTime: 30_000 });
  useEffect(() => {
    if (!data) return;
    return commands.registerAll(
      data.map((s) =>
        defineCommand({
          id: `scripts.run.${s.id}`,
          title: `Run script: ${s.name}`,
          category: 'Scripts',
          keywords: [s.owner_email, s.shared ? 'shared' : 'mine'],
          run: async (_a, ctx) => {
            if (ctx.dock) {
              ctx.dock.openUrl(`/scripts?id=${s.id}&run=1`);
              return { opened: s.id };
            }
            return commands.execute('scripts.run', { script: String(s.id) }, 'script');
          },
        }),
      ),
    );
  }, [data]);
  return null;
}
