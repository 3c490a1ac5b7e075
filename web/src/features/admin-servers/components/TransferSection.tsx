import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, Stepper, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import {
  ACTIVE_TRANSFER_STATES,
  type AdminServer,
  allocationsQuery,
  nodesQuery,
  type Transfer,
  transferQuery,
  useCancelTransfer,
  useStartTransfer,
} from '@/features/admin-servers/api';
import { notify, notifyError } from '@/lib/notify';

/** The steps of a running transfer, in order; a final state other than completed ends it early. */
const STEPS = ['pending', 'archiving', 'restoring', 'completed'] as const;

const stepOf = (transfer: Transfer): number => {
  const reached = transfer.history.map((s) => STEPS.indexOf(s.state as (typeof STEPS)[number])).filter((i) => i >= 0);
  const last = Math.max(0, ...reached);
  return transfer.state === 'completed' ? STEPS.length : last;
};

/** Choose a node and its free allocations, then start. */
const TransferDialog = ({ server, onClose }: { server: AdminServer; onClose: () => void }) => {
  const { t } = useTranslation();
  const nodes = useQuery(nodesQuery);
  const [nodeId, setNodeId] = useState<string | null>(null);
  const [allocationId, setAllocationId] = useState<string | null>(null);
  const [additional, setAdditional] = useState<string[]>([]);
  const allocations = useQuery(allocationsQuery(nodeId ?? ''));
  const start = useStartTransfer(server.id);
  const free = (allocations.data ?? []).filter((a) => a.serverId === null && a.reservedByTransferId === null);
  const label = (a: (typeof free)[number]) => `${a.alias ?? a.ip}:${a.port}`;
  return (
    <Modal opened onClose={start.isPending ? () => undefined : onClose} title={t('adminServers.transfer.dialogTitle', { name: server.name })} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (nodeId && allocationId) {
            start.mutate(
              { nodeId, allocationId, additionalAllocationIds: additional.filter((id) => id !== allocationId) },
              {
                onSuccess: () => {
                  notify({ color: 'green', message: t('adminServers.transfer.started') });
                  onClose();
                },
              },
            );
          }
        }}
      >
        <Stack>
          <Text size="sm">{t('adminServers.transfer.dialogText')}</Text>
          <Select
            label={t('adminServers.transfer.node')}
            placeholder={t('adminServers.transfer.nodePlaceholder')}
            data={(nodes.data ?? []).filter((n) => n.id !== server.nodeId).map((n) => ({ value: n.id, label: n.maintenanceMode ? `${n.name} (${t('adminNodes.maintenanceBadge')})` : n.name }))}
            value={nodeId}
            onChange={(v) => {
              setNodeId(v);
              setAllocationId(null);
              setAdditional([]);
            }}
            searchable
            required
            data-autofocus
          />
          <Select
            label={t('adminServers.transfer.allocation')}
            placeholder={nodeId && free.length === 0 && !allocations.isLoading ? t('adminServers.transfer.noFree') : t('adminServers.transfer.allocationPlaceholder')}
            data={free.map((a) => ({ value: a.id, label: label(a) }))}
            value={allocationId}
            onChange={setAllocationId}
            disabled={!nodeId}
            searchable
            required
          />
          <MultiSelect
            label={t('adminServers.transfer.additional')}
            description={t('adminServers.transfer.additionalHelp')}
            data={free.filter((a) => a.id !== allocationId).map((a) => ({ value: a.id, label: label(a) }))}
            value={additional}
            onChange={setAdditional}
            disabled={!allocationId}
            searchable
          />
          {start.error ? <FormError error={start.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={start.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!nodeId || !allocationId} loading={start.isPending}>
              {t('adminServers.transfer.start')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** The live state of a transfer: its steps, and a cancel button while it runs. */
const TransferProgress = ({ server, transfer }: { server: AdminServer; transfer: Transfer }) => {
  const { t } = useTranslation();
  const cancel = useCancelTransfer(server.id);
  const nodes = useQuery(nodesQuery);
  const nodeName = (id: string) => nodes.data?.find((n) => n.id === id)?.name ?? `#${id}`;
  const active = ACTIVE_TRANSFER_STATES.includes(transfer.state);
  const ended = transfer.history.at(-1);
  return (
    <Stack gap="sm" aria-live="polite" data-testid="transfer-progress">
      <Text size="sm">{t('adminServers.transfer.route', { from: nodeName(transfer.oldNodeId), to: nodeName(transfer.newNodeId) })}</Text>
      <Stepper active={stepOf(transfer)} size="sm" color={transfer.state === 'failed' || transfer.state === 'cancelled' ? 'red' : undefined}>
        {STEPS.map((step) => (
          <Stepper.Step key={step} label={t(`adminServers.transfer.states.${step}`)} />
        ))}
      </Stepper>
      <Text size="sm" fw={600} data-testid="transfer-state">
        {t('adminServers.transfer.state', { state: t(`adminServers.transfer.states.${transfer.state}`) })}
      </Text>
      {transfer.state === 'completed' ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />}>
          {t('adminServers.transfer.completedText', { node: nodeName(transfer.newNodeId), at: ended ? new Date(ended.at).toLocaleString() : '' })}
        </Alert>
      ) : null}
      {transfer.state === 'failed' || transfer.state === 'cancelled' ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {t('adminServers.transfer.endedText', { reason: transfer.reason ?? '' })}
        </Alert>
      ) : null}
      {active ? (
        <Group>
          <Button variant="default" color="red" loading={cancel.isPending} onClick={() => cancel.mutate(undefined, { onSuccess: () => notify({ message: t('adminServers.transfer.cancelled') }), onError: notifyError })}>
            {t('adminServers.transfer.cancel')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
};

/** The Manage tab's transfer row: the running or last transfer, and the dialog to start one. */
export const TransferSection = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  const transfer = useQuery(transferQuery(server.id));
  const [open, setOpen] = useState(false);
  const active = transfer.data ? ACTIVE_TRANSFER_STATES.includes(transfer.data.state) : false;
  const qc = useQueryClient();
  const state = transfer.data?.state;
  // Once it ends the server's node and allocations may have changed: read it again.
  useEffect(() => {
    if (state !== undefined && !ACTIVE_TRANSFER_STATES.includes(state)) {
      void qc.invalidateQueries({ queryKey: ['admin-servers', 'server', server.id], exact: true });
    }
  }, [state, qc, server.id]);
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm" align="center">
        <Stack gap={2} style={{ flex: '1 1 260px' }}>
          <Text fw={600}>{t('adminServers.transfer.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('adminServers.transfer.text')}
          </Text>
        </Stack>
        <Button variant="default" onClick={() => setOpen(true)} disabled={active || server.installStatus === 'installing'}>
          {t('adminServers.transfer.open')}
        </Button>
      </Group>
      {transfer.data ? <TransferProgress server={server} transfer={transfer.data} /> : null}
      {open ? <TransferDialog server={server} onClose={() => setOpen(false)} /> : null}
    </Stack>
  );
};
