import { Anchor, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { type Webhook, type WebhookScope, type WebhookWithSecret, webhooksQuery } from '@/features/webhooks/api';
import { EventLabel } from '@/features/webhooks/components/DeliveryList';
import { WebhookDialog } from '@/features/webhooks/components/WebhookDialog';
import { useCanWrite } from '@/features/auth/admin-access';

/** A link to a webhook's page, in the administration or under its server. */
const WebhookLink = ({ scope, webhookId, children }: { scope: WebhookScope; webhookId: string; children: ReactNode }) =>
  scope.kind === 'admin' ? (
    <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/admin/webhooks/$webhookId" params={{ webhookId }} />} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Anchor>
  ) : (
    <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/server/$id/webhooks/$webhookId" params={{ id: scope.serverId, webhookId }} />} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Anchor>
  );

/** A webhook's kind, whether it is on, whether it signs, and the events it listens to, by name. */
export const WebhookFacts = ({ hook }: { hook: Webhook }) => {
  const { t } = useTranslation();
  const badge = { styles: { label: { color: 'var(--mantine-color-text)' } } };
  return (
    <Stack gap={4}>
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {hook.url}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" color={hook.kind === 'discord' ? 'indigo' : 'blue'} {...badge}>
          {t(`webhooks.kindBadge.${hook.kind}`)}
        </Badge>
        <Badge variant="light" color={hook.enabled ? 'green' : 'gray'} {...badge}>
          {hook.enabled ? t('webhooks.on') : t('webhooks.off')}
        </Badge>
        {hook.hasSecret ? (
          <Badge variant="light" color="teal" {...badge}>
            {t('webhooks.signed')}
          </Badge>
        ) : null}
        <Text size="sm" c="dimmed">
          {hook.events.includes('*') ? t('webhooks.allEvents') : t('webhooks.eventsCount', { count: hook.events.length })}
        </Text>
      </Group>
      {hook.events.includes('*') ? null : (
        <Text size="sm">
          {hook.events.map((e, i) => (
            <span key={e}>
              {i > 0 ? ' · ' : ''}
              <EventLabel event={e} />
            </span>
          ))}
        </Text>
      )}
    </Stack>
  );
};

/** How an endpoint checks a request: shown with every new secret. */
export const VerifyHelp = () => {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('webhooks.verifyTitle')}
      </Text>
      <Text size="sm">{t('webhooks.verifyText')}</Text>
      <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {t('webhooks.verifyFormula')}
      </Code>
      <Text size="sm">{t('webhooks.verifyAfter')}</Text>
    </Stack>
  );
};

/** A scope's webhooks (the administration's, or a server's): the list, a new one, and its secret once. */
export const WebhooksPage = ({ scope }: { scope: WebhookScope }) => {
  const { t } = useTranslation();
  const list = useQuery(webhooksQuery(scope));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  // The administration's webhooks change with the webhooks area's write access (a server's page decides its own).
  const adminWrite = useCanWrite('webhooks');
  const canWrite = scope.kind === 'server' || adminWrite;
  const newButton = canWrite ? <Button onClick={() => setCreating(true)}>{t('webhooks.create')}</Button> : null;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('webhooks.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t(scope.kind === 'admin' ? 'webhooks.introAdmin' : 'webhooks.introServer')}
      </Text>
      {created?.secret ? (
        <ShownOnceSecret
          title={t('webhooks.secretTitle')}
          text={t('webhooks.secretText')}
          value={created.secret}
          copyLabel={t('webhooks.secretCopy')}
          testId="webhook-secret"
          dismissLabel={t('webhooks.secretDismiss')}
          onDismiss={() => setCreated(null)}
        >
          <VerifyHelp />
        </ShownOnceSecret>
      ) : null}
      <QueryListBody
        query={list}
        errorTitle={t('webhooks.loadError')}
        empty={<EmptyState icon={<IconWebhook />} title={t('webhooks.emptyTitle')} description={t('webhooks.emptyText')} action={newButton} />}
      >
        {(data) => (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.map((hook) => (
              <Card key={hook.id} withBorder padding="sm" component="li" aria-label={hook.name}>
                <Stack gap={4}>
                  <WebhookLink scope={scope} webhookId={hook.id}>
                    {hook.name}
                  </WebhookLink>
                  <WebhookFacts hook={hook} />
                </Stack>
              </Card>
            ))}
          </Stack>
        )}
      </QueryListBody>
      {creating ? <WebhookDialog scope={scope} onClose={() => setCreating(false)} onSaved={setCreated} /> : null}
    </Stack>
  );
};
