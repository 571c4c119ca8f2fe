/** Help pages linked from the form (they open in a new tab): host_cli syntax, host_cli python, cloud python. */
import type { PaneComponent } from '@/panes/feature-module';
import { HOST_CLI_CONDITIONS, sampleHostCliCommand } from '@/api/contracts/action-form-host-cli';
import { CLOUD_SCRIPT_TEMPLATE } from '@/api/contracts/action-form';

const pre = 'overflow-auto rounded border border-line bg-surface p-3 font-mono text-xs';

function HostCliHelp() {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-3 p-6 text-sm">
      <h2 className="text-lg font-semibold">Host CLI command syntax</h2>
      <p>Each command is a line that is not indented. Under it, indented, comes one parameters line and then any number of condition lines.</p>
      <pre className={pre}>{`<command line>\n  <prompt_regex> <sleep_seconds> <check_logs_boolean> [<max_timeout_seconds>]\n  <condition> [<regex>]`}</pre>
      <ul className="list-disc pl-5">
        <li>
          <code>prompt_regex</code>: the prompt that ends the command's output, or <code>auto</code>.
        </li>
        <li>
          <code>sleep_seconds</code>: seconds to wait after the command (sample 4; 3 for cleanup).
        </li>
        <li>
          <code>check_logs_boolean</code>: <code>true</code> or <code>false</code>.
        </li>
        <li>
          <code>max_timeout_seconds</code>: optional, whole seconds (sample 60).
        </li>
      </ul>
      <h3 className="font-semibold">Conditions</h3>
      <p>
        {HOST_CLI_CONDITIONS.map((c, i) => (
          <span key={c}>
            {i > 0 && ', '}
            <code>{c}</code>
          </span>
        ))}
        . The <code>*_match</code> conditions take a regular expression; the others take nothing.
      </p>
      <h3 className="font-semibold">Example</h3>
      <pre className={pre}>{sampleHostCliCommand('reg save HKLM\\SAM C:\\users\\public\\sam.save /y', ['blocked_match Access is denied', 'success_zero', 'error_nonzero'])}</pre>
      <p>The cleanup script is optional and uses the same syntax, usually with the <code>cleanup</code> condition:</p>
      <pre className={pre}>{sampleHostCliCommand('del /f C:\\users\\public\\sam.save', ['cleanup'], true)}</pre>
    </article>
  );
}

function HostCliPythonHelp() {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-3 p-6 text-sm">
      <h2 className="text-lg font-semibold">Host CLI: Python scripts</h2>
      <p>With the Python shell the script is Python 3 run by the actor as a whole; the command syntax does not apply.</p>
      <ul className="list-disc pl-5">
        <li>Exit with status 0 for success; a non-zero status counts as an error.</li>
        <li>Print what should appear in the job's output; it is kept with the result.</li>
        <li>Attached files are copied to their destination directory before the script runs.</li>
      </ul>
      <pre className={pre}>{`import subprocess, sys\nout = subprocess.run(['whoami', '/all'], capture_output=True, text=True)\nprint(out.stdout)\nsys.exit(out.returncode)`}</pre>
    </article>
  );
}

function CloudPythonHelp() {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-3 p-6 text-sm">
      <h2 className="text-lg font-semibold">Cloud Actions: Python scripts</h2>
      <p>A cloud Action runs its scripts in order: the first is the Setup script, the last the Clean Up script. Each script is Python 3 with:</p>
      <ul className="list-disc pl-5">
        <li>
          <code>inputs[name]</code>: the value of each input (its default unless the run sets one).
        </li>
        <li>
          <code>outputs[name]</code>: set outputs for later scripts and for the result.
        </li>
        <li>
          <code>files[variable_name]</code>: the local path of each attached file.
        </li>
      </ul>
      <p>A new script starts from this template:</p>
      <pre className={pre}>{CLOUD_SCRIPT_TEMPLATE}</pre>
    </article>
  );
}

export const HELP_PANES: PaneComponent[] = [
  { id: 'host-cli-help', component: HostCliHelp },
  { id: 'host-cli-python-help', component: HostCliPythonHelp },
  { id: 'cloud-python-help', component: CloudPythonHelp },
];
