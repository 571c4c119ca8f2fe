import { DAY, iso, type Rng } from './random';
import type { FileLibraryRow, FileRestriction, FileTagRow } from './types';

type Os = 'Windows' | 'Linux' | 'Cloud Platform' | null;

/** [orig_file_name, size, file_notes, file_restrictions, os tree node, tags]. */
const FILES: readonly (readonly [string, number, string, FileRestriction, Os, readonly string[]])[] = [
  ['mimikatz.exe', 1250056, 'Mimikatz 2.2.0 x64. Credential dumping tool; protected theater only.', 'restricted_malicious', 'Windows', ['File:Malicious Sample']],
  ['procdump64.exe', 424856, 'Sysinternals ProcDump 11.0, signed by Microsoft.', 'none', 'Windows', ['File:Living off the Land Binary']],
  ['SharpHound.ps1', 1309122, 'BloodHound collector (PowerShell edition).', 'restricted_malicious', 'Windows', ['File:Script', 'File:Malicious Sample']],
  ['Invoke-Kerberoast.ps1', 46848, 'PowerSploit Kerberoasting script.', 'restricted_malicious', 'Windows', ['File:Script']],
  ['AdFind.exe', 1612288, 'AdFind by joeware; often abused for domain discovery.', 'none', 'Windows', ['File:Living off the Land Binary']],
  ['rclone.exe', 52428800, 'rclone 1.66, used to stage exfiltration tests.', 'none', 'Windows', []],
  ['lockbit3_sample.bin', 162304, 'Defanged LockBit 3.0 encryptor. Runs only in the protected theater.', 'restricted_malicious', 'Windows', ['File:Malicious Sample']],
  ['emotet_dropper.doc', 198656, 'Emotet epoch 5 dropper document with VBA macro.', 'restricted_malicious', 'Windows', ['File:Office Document', 'File:Malicious Sample']],
  ['Invoice_88412.docm', 61440, 'Benign macro that launches calc.exe; phishing awareness test.', 'pending_approval', 'Windows', ['File:Office Document']],
  ['Q3_Payroll_Update.xlsm', 38912, 'Macro workbook that requests a test URL when opened.', 'pending_approval', 'Windows', ['File:Office Document']],
  ['eicar.com', 68, 'EICAR anti-malware test file.', 'none', null, ['File:Test File']],
  ['eicar_com.zip', 184, 'EICAR test file inside a zip archive.', 'none', null, ['File:Test File']],
  ['payload.hta', 4211, 'HTA launcher running a PowerShell download cradle.', 'restricted_malicious', 'Windows', ['File:Script', 'File:Malicious Sample']],
  ['beacon_x64.dll', 301056, 'Cobalt Strike beacon DLL (trial watermark) for rundll32 tests.', 'restricted_malicious', 'Windows', ['File:Malicious Sample']],
  ['nc64.exe', 45272, 'Netcat for Windows.', 'none', 'Windows', []],
  ['PsExec64.exe', 833472, 'Sysinternals PsExec 2.43.', 'none', 'Windows', ['File:Living off the Land Binary']],
  ['7za.exe', 1210368, '7-Zip 23.01 standalone console.', 'none', 'Windows', []],
  ['customer_records_sample.csv', 2457600, 'Synthetic PII with Luhn-valid card numbers for DLP tests.', 'none', null, ['File:Test File']],
  ['aws_enum.py', 9876, 'Enumerates IAM, S3 and EC2 with boto3 (read-only calls).', 'pending_approval', 'Cloud Platform', ['File:Script']],
  ['azure_sp_backdoor.ps1', 6544, 'Adds a client secret to an Azure AD service principal.', 'pending_approval', 'Cloud Platform', ['File:Script']],
  ['s3_exfil_dataset.tar.gz', 10485760, 'Synthetic dataset for exfiltration to cloud storage.', 'none', 'Cloud Platform', ['File:Test File']],
  ['linpeas.sh', 847815, 'Linux privilege escalation enumeration script.', 'restricted_malicious', 'Linux', ['File:Script']],
  ['xmrig', 8634368, 'XMRig 6.21 cryptominer (Linux ELF).', 'restricted_malicious', 'Linux', ['File:Malicious Sample']],
  ['agenttesla_invoice.exe', 573440, 'AgentTesla infostealer sample.', 'restricted_malicious', 'Windows', ['File:Malicious Sample']],
  ['quarterly_report.pdf', 245760, 'Benign PDF used as a control attachment.', 'none', null, ['File:Office Document']],
];

const EICAR = {
  sha256sum: '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f',
  sha1sum: '3395856ce81f2b7382dee72602f798b642f14140',
  md5sum: '44d88612fea8a8f36de82e1278abb02f',
};

export interface FileSet {
  file_library: FileLibraryRow[];
  file_tags: FileTagRow[];
  /** File id by orig_file_name; throws on an unknown name. */
  id(name: string): number;
}

export function buildFiles(rng: Rng, now: number, userIds: readonly number[], tagId: (name: string) => number, osId: (name: string) => number): FileSet {
  const file_library: FileLibraryRow[] = [];
  const file_tags: FileTagRow[] = [];
  FILES.forEach(([orig_file_name, size, file_notes, file_restrictions, os, tags], i) => {
    const id = i + 1;
    const created = now - rng.int(30, 500) * DAY;
    const hashes = orig_file_name === 'eicar.com' ? EICAR : { sha256sum: rng.hex(64), sha1sum: rng.hex(40), md5sum: rng.hex(32) };
    file_library.push({
      id,
      orig_file_name,
      ...hashes,
      size,
      file_notes,
      file_restrictions,
      os_tree_id: os ? osId(os) : null,
      created_by: userIds.length ? rng.pick(userIds) : null,
      created_at: iso(created),
      updated_at: iso(created + rng.int(0, 20) * DAY),
    });
    for (const t of tags) file_tags.push({ file_id: id, tag_id: tagId(t) });
  });
  return {
    file_library,
    file_tags,
    id(name) {
      const f = file_library.find((r) => r.orig_file_name === name);
      if (!f) throw new Error(`unknown file ${name}`);
      return f.id;
    },
  };
}
