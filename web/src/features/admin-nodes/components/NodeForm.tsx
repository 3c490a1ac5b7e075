import { Button, Checkbox, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { backupHostsQuery } from '@/features/admin-backup-hosts/api';
import { type AdminNode, locationsQuery, type NodeBody } from '@/features/admin-nodes/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { onlyChoice } from '@/lib/only-choice';

interface NodeFormProps {
  node?: AdminNode;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: NodeBody) => void;
  onCancel?: () => void;
}

const num = (value: number | string, fallback: number): number => (typeof value === 'number' ? value : Number.parseInt(value, 10) || fallback);

/**
 * The options, with the one `value` names when the list lacks it: a caller whose roles may not read
 * the locations still sees that the node has one (not "No location").
 */
const withUnlisted = (options: { value: string; label: string }[], value: string | null, label: (id: string) => string) =>
  value === null || options.some((o) => o.value === value) ? options : [...options, { value, label: label(value) }];

/** Every setting of a node: where the daemon is, what it may hold, and how it is reached. */
export const NodeForm = ({ node, submitLabel, pending, error, onSubmit, onCancel }: NodeFormProps) => {
  const { t } = useTranslation();
  const locations = useQuery(locationsQuery());
  const backupHosts = useQuery(backupHostsQuery());
  const [backupHostId, setBackupHostId] = useState<string | null>(node?.backupHostId ?? null);
  const [name, setName] = useState(node?.name ?? '');
  const [description, setDescription] = useState(node?.description ?? '');
  const [locationId, setLocationId] = useState<string | null>(node?.locationId ?? null);
  // A new node takes the only location there is, until someone chooses (or clears) it.
  const [locationTouched, setLocationTouched] = useState(node !== undefined);
  const onlyLocation = onlyChoice(locations.data);
  useEffect(() => {
    if (!locationTouched && onlyLocation && locationId === null) {
      setLocationId(onlyLocation.id);
    }
  }, [locationTouched, onlyLocation, locationId]);
  const [fqdn, setFqdn] = useState(node?.fqdn ?? '');
  const [scheme, setScheme] = useState<'http' | 'https'>(node?.scheme ?? 'https');
  const [daemonListen, setDaemonListen] = useState<number | string>(node?.daemonListen ?? 8080);
  const [daemonSftp, setDaemonSftp] = useState<number | string>(node?.daemonSftp ?? 2022);
  const [memory, setMemory] = useState<number | string>(node?.memory ?? 8192);
  const [memoryOverallocate, setMemoryOverallocate] = useState<number | string>(node?.memoryOverallocate ?? 0);
  const [disk, setDisk] = useState<number | string>(node?.disk ?? 102400);
  const [diskOverallocate, setDiskOverallocate] = useState<number | string>(node?.diskOverallocate ?? 0);
  const [uploadSize, setUploadSize] = useState<number | string>(node?.uploadSize ?? 100);
  const [behindProxy, setBehindProxy] = useState(node?.behindProxy ?? false);
  const [maintenanceMode, setMaintenanceMode] = useState(node?.maintenanceMode ?? false);
  const [isPublic, setPublic] = useState(node?.public ?? true);
  const fields = error instanceof ApiError ? fieldErrors(error) : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      name: name.trim(),
      description: description.trim() || null,
      locationId,
      backupHostId,
      fqdn: fqdn.trim(),
      scheme,
      daemonListen: num(daemonListen, 8080),
      daemonSftp: num(daemonSftp, 2022),
      memory: num(memory, 0),
      memoryOverallocate: num(memoryOverallocate, 0),
      disk: num(disk, 0),
      diskOverallocate: num(diskOverallocate, 0),
      uploadSize: num(uploadSize, 100),
      behindProxy,
      maintenanceMode,
      public: isPublic,
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('adminNodes.form.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} required data-autofocus />
          <Select
            label={t('adminNodes.form.location')}
            placeholder={t('adminNodes.form.noLocation')}
            data={withUnlisted(
              (locations.data ?? []).map((l) => ({ value: l.id, label: l.long ? `${l.short} (${l.long})` : l.short })),
              locationId,
              (id) => t('adminNodes.form.unlistedLocation', { id }),
            )}
            value={locationId}
            onChange={(value) => {
              setLocationTouched(true);
              setLocationId(value);
            }}
            clearable
            error={fields.locationId}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Select
          label={t('adminNodes.form.backupHost')}
          description={t('adminNodes.form.backupHostHelp')}
          placeholder={t('adminNodes.form.noBackupHost')}
          data={(backupHosts.data ?? []).map((h) => ({ value: h.id, label: h.adapter === 's3' ? `${h.name} (S3)` : h.name }))}
          value={backupHostId}
          onChange={setBackupHostId}
          clearable
          error={fields.backupHostId}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea label={t('adminNodes.form.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={1} maxRows={4} />
        <Text fw={600} size="sm" mt="xs">
          {t('adminNodes.form.connection')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('adminNodes.form.fqdn')} description={t('adminNodes.form.fqdnHelp')} value={fqdn} onChange={(e) => setFqdn(e.currentTarget.value)} error={fields.fqdn} required />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="node-scheme-label">
              {t('adminNodes.form.scheme')}
            </Text>
            <SegmentedControl
              aria-labelledby="node-scheme-label"
              value={scheme}
              onChange={(v) => setScheme(v === 'http' ? 'http' : 'https')}
              data={[
                { value: 'https', label: 'HTTPS' },
                { value: 'http', label: 'HTTP' },
              ]}
            />
          </Stack>
          <NumberInput label={t('adminNodes.form.daemonListen')} value={daemonListen} onChange={setDaemonListen} min={1} max={65535} allowDecimal={false} error={fields.daemonListen} />
          <NumberInput label={t('adminNodes.form.daemonSftp')} value={daemonSftp} onChange={setDaemonSftp} min={1} max={65535} allowDecimal={false} error={fields.daemonSftp} />
        </SimpleGrid>
        <Text fw={600} size="sm" mt="xs">
          {t('adminNodes.form.limits')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput label={t('adminNodes.form.memory')} value={memory} onChange={setMemory} min={0} allowDecimal={false} error={fields.memory} required />
          <NumberInput label={t('adminNodes.form.memoryOverallocate')} description={t('adminNodes.form.overallocateHelp')} value={memoryOverallocate} onChange={setMemoryOverallocate} min={-1} allowDecimal={false} error={fields.memoryOverallocate} />
          <NumberInput label={t('adminNodes.form.disk')} value={disk} onChange={setDisk} min={0} allowDecimal={false} error={fields.disk} required />
          <NumberInput label={t('adminNodes.form.diskOverallocate')} description={t('adminNodes.form.overallocateHelp')} value={diskOverallocate} onChange={setDiskOverallocate} min={-1} allowDecimal={false} error={fields.diskOverallocate} />
          <NumberInput label={t('adminNodes.form.uploadSize')} value={uploadSize} onChange={setUploadSize} min={1} max={1048576} allowDecimal={false} error={fields.uploadSize} />
        </SimpleGrid>
        <Stack gap="xs" mt="xs">
          <Checkbox label={t('adminNodes.form.behindProxy')} description={t('adminNodes.form.behindProxyHelp')} checked={behindProxy} onChange={(e) => setBehindProxy(e.currentTarget.checked)} />
          <Checkbox label={t('adminNodes.form.maintenance')} description={t('adminNodes.form.maintenanceHelp')} checked={maintenanceMode} onChange={(e) => setMaintenanceMode(e.currentTarget.checked)} />
          <Checkbox label={t('adminNodes.form.public')} description={t('adminNodes.form.publicHelp')} checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
        </Stack>
        {error ? <FormError error={error} /> : null}
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
