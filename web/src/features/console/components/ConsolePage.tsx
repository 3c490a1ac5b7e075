import { Alert, Box, Button, Card, Code, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay, IconPlayerStop, IconRefresh, IconSkull, IconTerminal2 } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { usePowerAction, type PowerAction } from '@/features/console/api';
import { appendHistory, loadHistory, saveHistory, stepHistory, type HistoryCursor } from '@/features/console/command-history';
import type { ConsoleDiagnosis, ConsoleState } from '@/features/console/console-client';
import { addSample, type StatsPoint } from '@/features/console/stats-series';
import { ConsoleTerminal } from '@/features/console/components/ConsoleTerminal';
import { consoleHealth } from '@/features/console/node-status';
import { useConsole } from '@/features/console/use-console';
import { describeError } from '@/lib/errors';
import { formatDuration, serverMemoryLimit } from '@/lib/format';
import { notifyError } from '@/lib/notify';
import { useLiveStatus } from '@/lib/use-live-status';
import type { ServerDetails } from '@/features/server/api';

// uPlot comes after the terminal: the output matters first.
const ConsoleGraphs = lazy(() => import('@/features/console/components/ConsoleGraphs'));
const ServerUsageHistory = lazy(() => import('@/features/usage/components/UsageHistory').then((m) => ({ default: m.ServerUsageHistory })));

/** What the console page reads of the server details (the route passes them in; the client API names servers by uuid). */
type ConsoleServer = Pick<ServerDetails, 'uuid' | 'status' | 'suspended' | 'limits' | 'allocations' | 'permissions' | 'transferring'>;

const STATUS_COLORS: Record<string, string> = { running: 'green', starting: 'yellow', stopping: 'orange', offline: 'gray', unreachable: 'red' };

const DiagnosisText = ({ diagnosis }: { diagnosis: ConsoleDiagnosis }) => {
  const { t, i18n } = useTranslation();
  switch (diagnosis.kind) {
    case 'mixed-content':
      return <Text size="sm">{t('console.diagnosis.mixedContent', { socket: diagnosis.socket })}</Text>;
    case 'node-down':
      return <Text size="sm">{t('console.diagnosis.nodeDown')}</Text>;
    case 'unavailable':
      return (
        <Stack gap={4}>
          <Text size="sm">{t('console.diagnosis.unavailable', { message: diagnosis.message })}</Text>
          <Code block>{JSON.stringify(diagnosis.diagnostics, null, 2)}</Code>
        </Stack>
      );
    case 'unreachable':
      return <Text size="sm">{t('console.diagnosis.unreachable', { socket: diagnosis.socket, origin: window.location.origin })}</Text>;
    case 'connection-lost':
      return <Text size="sm">{t('console.diagnosis.connectionLost')}</Text>;
    case 'access-removed':
      return <Text size="sm">{t('console.diagnosis.accessRemoved')}</Text>;
    case 'suspended':
      return <Text size="sm">{t('console.diagnosis.suspended')}</Text>;
    case 'transferring':
      return <Text size="sm">{t('console.diagnosis.transferring')}</Text>;
    case 'token-rejected':
      return <Text size="sm">{t('console.diagnosis.tokenRejected', { message: diagnosis.message })}</Text>;
    case 'panel-error':
      return <Text size="sm">{describeError(diagnosis.error, t, i18n.language).message}</Text>;
  }
};

/** The connection's state in a few words, for the status line (announced politely). */
const connectionText = (state: ConsoleState, t: TFunction): string => {
  switch (state.phase) {
    case 'idle':
    case 'connecting':
      return t('console.connection.connecting');
    case 'connected':
      return t('console.connection.connected');
    case 'reconnecting':
      return t('console.connection.reconnecting', { seconds: Math.ceil(state.delayMs / 1000), attempt: state.attempt });
    case 'failed':
      return t('console.connection.failed');
    case 'deleted':
      return t('console.connection.deleted');
    case 'closed':
      return t('console.connection.closed');
  }
};

const PowerButtons = ({ serverId, status, nodeDown, transferring }: { serverId: string; status: string; nodeDown: boolean; transferring: boolean }) => {
  const { t } = useTranslation();
  const power = usePowerAction(serverId);
  const run = (action: PowerAction) => power.mutate(action, { onError: (error) => notifyError(error) });
  // Nothing reaches a node that does not answer: every button waits for it.
  // A server moving to another node answers power actions with 409 until the transfer ends.
  const busy = power.isPending || nodeDown || transferring;
  const offline = status === 'offline';
  return (
    <Group gap="xs" role="group" aria-label={t('console.power.label')}>
      <Button size="sm" color="green" leftSection={<IconPlayerPlay size={16} aria-hidden />} disabled={busy || !offline} onClick={() => run('start')}>
        {t('console.power.start')}
      </Button>
      <Button size="sm" variant="default" leftSection={<IconRefresh size={16} aria-hidden />} disabled={busy || offline} onClick={() => run('restart')}>
        {t('console.power.restart')}
      </Button>
      {status === 'stopping' ? (
        <Button size="sm" color="red" leftSection={<IconSkull size={16} aria-hidden />} disabled={busy} onClick={() => run('kill')}>
          {t('console.power.kill')}
        </Button>
      ) : (
        <Button size="sm" color="red" variant="light" leftSection={<IconPlayerStop size={16} aria-hidden />} disabled={busy || offline} onClick={() => run('stop')}>
          {t('console.power.stop')}
        </Button>
      )}
    </Group>
  );
};

const CommandLine = ({ serverId, onSend, disabledReason }: { serverId: string; onSend: (command: string) => boolean; disabledReason: string | null }) => {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [entries, setEntries] = useState(() => loadHistory(window.localStorage, serverId));
  const cursor = useRef<HistoryCursor>({ index: null, draft: '' });
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const step = stepHistory(entries, cursor.current, text, e.key === 'ArrowUp' ? 'up' : 'down');
      cursor.current = step.cursor;
      setText(step.text);
      return;
    }
    if (e.key === 'Enter' && text.trim() !== '') {
      e.preventDefault();
      if (onSend(text)) {
        const next = appendHistory(entries, text);
        setEntries(next);
        saveHistory(window.localStorage, serverId, next);
        cursor.current = { index: null, draft: '' };
        setText('');
      }
    }
  };
  return (
    <TextInput
      label={t('console.command.label')}
      description={disabledReason ?? t('console.command.hint')}
      placeholder={t('console.command.placeholder')}
      leftSection={<IconTerminal2 size={16} aria-hidden />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={onKeyDown}
      disabled={disabledReason !== null}
      autoComplete="off"
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
};

/** /server/$id: the live console, power, the command line and the graphs. */
export const ConsolePage = ({ server }: { server: ConsoleServer }) => {
  const { t, i18n } = useTranslation();
  const view = useConsole(server.uuid);
  const live = useLiveStatus([server.uuid]).servers.get(server.uuid);
  const [points, setPoints] = useState<StatsPoint[]>([]);
  const previous = useRef<{ at: number; stats: NonNullable<typeof view.stats> } | null>(null);

  useEffect(() => {
    const stats = view.stats;
    if (!stats || previous.current?.stats === stats) {
      return;
    }
    const at = Date.now();
    setPoints((current) => addSample(current, previous.current, stats, at));
    previous.current = { at, stats };
  }, [view.stats]);

  const health = consoleHealth(view.state, view.status, server.status, live);
  const status = health.status;
  const canConsole = server.permissions.includes('server.console');
  const canPower = server.permissions.includes('server.power');
  const connected = view.state.phase === 'connected';
  const address = server.allocations.primary ? `${server.allocations.primary.ip}:${server.allocations.primary.port}` : null;
  const uptimeS = status !== 'offline' && view.stats ? view.stats.uptimeMs / 1000 : null;
  const diagnosis = health.diagnosis;

  // The node answers the panel again: the console need not wait out its backoff.
  const wasDown = useRef(false);
  useEffect(() => {
    if (wasDown.current && !health.nodeDown) {
      view.client?.retry();
    }
    wasDown.current = health.nodeDown;
  }, [health.nodeDown, view.client]);
  const commandBlocked = !connected || health.nodeDown ? t('console.command.notConnected') : status === 'offline' ? t('console.command.offline') : null;

  return (
    <Stack gap="md">
      {server.suspended ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('console.banner.suspendedTitle')}>
          {t('console.banner.suspended')}
        </Alert>
      ) : null}
      {server.status === 'installing' ? (
        <Alert color="blue" title={t('console.banner.installingTitle')}>
          {t('console.banner.installing')}
        </Alert>
      ) : null}
      {server.status === 'install_failed' ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('console.banner.installFailedTitle')}>
          {t('console.banner.installFailed')}
        </Alert>
      ) : null}
      {view.state.phase === 'deleted' ? (
        <Alert color="red" title={t('console.connection.deleted')}>
          <Button component={Link} to="/" size="xs" variant="light" color="red">
            {t('console.backToServers')}
          </Button>
        </Alert>
      ) : null}

      <Card withBorder padding="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="md" wrap="wrap">
            <Group gap={6}>
              <Text size="sm" c="dimmed">
                {t('console.status.label')}
              </Text>
              <Group gap={6} wrap="nowrap">
                <Box w={10} h={10} style={{ borderRadius: '50%', background: `var(--mantine-color-${STATUS_COLORS[status] ?? 'gray'}-6)` }} aria-hidden />
                <Text size="sm" fw={600}>
                  {t(`console.status.${status}`, { defaultValue: status })}
                </Text>
              </Group>
            </Group>
            {uptimeS !== null ? (
              <Text size="sm">
                <Text span c="dimmed">
                  {t('console.uptime')}{' '}
                </Text>
                {formatDuration(uptimeS, i18n.language)}
              </Text>
            ) : null}
            {address ? (
              <Group gap={2} wrap="nowrap">
                <Text size="sm" c="dimmed">
                  {t('console.address')}
                </Text>
                <Code>{address}</Code>
                <CopyButton value={address} label={t('console.copyAddress')} />
              </Group>
            ) : null}
          </Group>
          {canPower ? <PowerButtons serverId={server.uuid} status={status} nodeDown={health.nodeDown} transferring={server.transferring} /> : null}
        </Group>
        <Text size="xs" c="dimmed" mt={6} role="status" aria-live="polite">
          {connectionText(view.state, t)}
        </Text>
      </Card>

      {diagnosis ? (
        <Alert
          color={view.state.phase === 'failed' ? 'red' : 'yellow'}
          icon={<IconAlertTriangle aria-hidden />}
          title={t('console.diagnosis.title')}
          role="alert"
        >
          <Stack gap="xs">
            <DiagnosisText diagnosis={diagnosis} />
            {view.state.phase === 'failed' || view.state.phase === 'reconnecting' ? (
              <Group>
                <Button size="xs" variant="light" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => view.client?.retry()}>
                  {t('console.retry')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : null}

      <ConsoleTerminal client={view.client} />

      {canConsole ? <CommandLine serverId={server.uuid} onSend={(command) => view.client?.sendCommand(command) ?? false} disabledReason={commandBlocked} /> : null}

      <Suspense fallback={<Skeleton height={170} />}>
        <ConsoleGraphs points={points} memoryLimitBytes={serverMemoryLimit(server.limits.memory, view.stats?.memoryLimitBytes) ?? 0} />
      </Suspense>

      <Suspense fallback={<Skeleton height={200} />}>
        <ServerUsageHistory serverId={server.uuid} />
      </Suspense>
    </Stack>
  );
};
