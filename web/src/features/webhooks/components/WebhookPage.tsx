import { Alert, Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { PageSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type Delivery, type Webhook, type WebhookScope, type WebhookWithSecret, useDeleteWebhook, useSaveWebhook, useTestWebhook, webhookQuery } from '@/features/webhooks/api';
import { attemptResult, DeliveryList } from '@/features/webhooks/components/DeliveryList';
import { WebhookDialog } from '@/features/webhooks/components/WebhookDialog';
import { VerifyHelp, WebhookFacts } from '@/features/webhooks/components/WebhooksPage';
import { ApiError } from '@/lib/api/api-error';
import { notifyError } from '@/lib/notify';
import { useCanWrite } from '@/features/auth/admin-access';

/** The outcome of "Send test": delivered with its status and time, or why not. */
const TestOutcome = ({ delivery }: { delivery: Delivery }) => {
  const { t } = useTranslation();
  const attempt = delivery.attempts.at(-1);
  const delivered = delivery.status === 'delivered' && attempt;
  return (
    <Alert variant="light" color={delivered ? 'green' : 'red'} role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
      {delivered
        ? t('webhooks.testDelivered', { status: attempt.statusCode, ms: attempt.durationMs })
        : t('webhooks.testFailed', { reason: attempt ? attemptResult(attempt, t('webhooks.noAnswer')) : t('webhooks.noAnswer') })}
    </Alert>
  );
};

/** One webhook: what it sends where, edit, test, a new secret, delete, and its deliveries. */
export const WebhookPage = ({ scope, webhookId }: { scope: WebhookScope; webhookId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hook = useQuery(webhookQuery(scope, webhookId));
  const test = useTestWebhook(scope);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const listPath = scope.kind === 'admin' ? { to: '/admin/webhooks' as const } : { to: '/server/$id/webhooks' as const, params: { id: scope.serverId } };
  const adminWrite = useCanWrite('webhooks');
  const canWrite = scope.kind === 'server' || adminWrite;
  const remove = useConfirmedAction({
    mutation: useDeleteWebhook(scope),
    variables: (w: Webhook) => w.id,
    title: t('webhooks.deleteTitle'),
    message: (w) => t('webhooks.deleteText', { name: w.name }),
    confirmLabel: t('webhooks.delete'),
    danger: true,
    successMessage: (w) => t('webhooks.deleted', { name: w.name }),
    onSuccess: () => void navigate(listPath),
  });
  const rotate = useConfirmedAction({
    mutation: useSaveWebhook(scope),
    variables: (w: Webhook) => ({ id: w.id, body: { rotateSecret: true } }),
    title: t('webhooks.rotateTitle'),
    message: () => t('webhooks.rotateText'),
    confirmLabel: t('webhooks.rotateConfirm'),
    danger: true,
    onSuccess: (_w, saved: WebhookWithSecret) => setSecret(saved.secret ?? null),
  });
  const back = (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} {...listPath} />}>
      {t('webhooks.back')}
    </Anchor>
  );
  if (hook.isError) {
    if (hook.error instanceof ApiError && hook.error.code === 'WEBHOOK_NOT_FOUND') {
      return <EmptyState title={t('webhooks.notFound')} description={t('webhooks.notFoundText')} action={back} />;
    }
    return <ErrorState error={hook.error} onRetry={() => void hook.refetch()} />;
  }
  if (!hook.data) {
    return <PageSkeleton />;
  }
  const w = hook.data;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        {back}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {w.name}
          </Title>
          {canWrite ? (
          <Group gap="xs" wrap="wrap">
            <Button variant="default" onClick={() => setEditing(true)}>
              {t('webhooks.edit')}
            </Button>
            <Button variant="default" onClick={() => test.mutate(w.id, { onError: notifyError })} loading={test.isPending} disabled={!w.enabled} title={w.enabled ? undefined : t('webhooks.testSwitchedOff')}>
              {t('webhooks.test')}
            </Button>
            {w.kind === 'http' ? (
              <Button variant="default" onClick={() => rotate.ask(w)}>
                {t('webhooks.rotate')}
              </Button>
            ) : null}
            <Button variant="light" color="red" onClick={() => remove.ask(w)}>
              {t('webhooks.delete')}
            </Button>
          </Group>
          ) : null}
        </Group>
        <WebhookFacts hook={w} />
      </Stack>
      {secret ? (
        <ShownOnceSecret
          title={t('webhooks.secretTitle')}
          text={t('webhooks.secretText')}
          value={secret}
          copyLabel={t('webhooks.secretCopy')}
          testId="webhook-secret"
          dismissLabel={t('webhooks.secretDismiss')}
          onDismiss={() => setSecret(null)}
        >
          <VerifyHelp />
        </ShownOnceSecret>
      ) : null}
      {test.data ? <TestOutcome delivery={test.data} /> : null}
      <DeliveryList scope={scope} webhookId={w.id} />
      {editing ? <WebhookDialog scope={scope} hook={w} onClose={() => setEditing(false)} /> : null}
      {remove.dialog}
      {rotate.dialog}
    </Stack>
  );
};
