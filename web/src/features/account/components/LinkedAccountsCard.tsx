import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormError } from '@/components/FormError';
import { type Account, type Identity, identitiesQuery, linkableProvidersQuery, linkUrl, useUnlinkIdentity } from '@/features/account/api';
import { useFreshSession } from '@/features/account/components/ReauthDialog';
import { sessionQuery } from '@/features/auth/api';
import { ApiError } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';


/**
 * Account → Linked accounts: the sign-in providers this account signs in with, a "Link" for each
 * other enabled one (a trip to the provider and back), and unlinking. `linked`/`error` are what the
 * provider's callback said (`/account?linked=<id>` or `?error=<code>`). Linking needs a sign-in of
 * the last five minutes: an older one is confirmed first (the dialog of the password change, which
 * asks an account without a password to sign in again).
 */
export const LinkedAccountsCard = ({ account, linked, error }: { account: Account; linked?: string; error?: string }) => {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const fresh = useFreshSession(account);
  // The session as it is now (not as cached): signed in within five minutes, else refused as the panel would (SESSION_NOT_FRESH).
  const startLink = (providerId: string) =>
    void fresh.run(async () => {
      if (!(await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })).session.fresh) {
        throw new ApiError(403, 'SESSION_NOT_FRESH', '');
      }
      window.location.assign(linkUrl(providerId));
    });
  const identities = useQuery(identitiesQuery);
  const providers = useQuery(linkableProvidersQuery);
  const unlink = useUnlinkIdentity();
  const [unlinking, setUnlinking] = useState<Identity | null>(null);
  const linkedIds = new Set((identities.data ?? []).map((i) => i.provider.id));
  const linkable = (providers.data ?? []).filter((p) => !linkedIds.has(p.id));
  if ((providers.data ?? []).length === 0 && (identities.data ?? []).length === 0) {
    return null; // no provider to link, none linked: nothing to show
  }
  const justLinked = linked ? identities.data?.find((i) => i.provider.id === linked) : undefined;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-linked">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-linked">
          {t('account.linked.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('account.linked.help')}
        </Text>
        {justLinked ? (
          <Text size="sm" c="green" role="status">
            {t('account.linked.done', { name: justLinked.provider.name })}
          </Text>
        ) : null}
        {error ? <FormError error={new ApiError(400, error, '')} /> : null}
        {identities.data && identities.data.length > 0 ? (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {identities.data.map((identity) => (
              <Group key={identity.id} component="li" justify="space-between" wrap="wrap" gap="xs" aria-label={identity.provider.name}>
                <Stack gap={0}>
                  <Text fw={600}>{identity.provider.name}</Text>
                  <Text size="sm" c="dimmed">
                    {[identity.email, identity.lastUsedAt ? t('account.linked.lastUsed', { when: formatDateTime(identity.lastUsedAt, i18n.language) }) : null].filter(Boolean).join(' · ')}
                  </Text>
                </Stack>
                <Button variant="light" color="red" size="xs" onClick={() => setUnlinking(identity)}>
                  {t('account.linked.unlink')}
                </Button>
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm">{t('account.linked.none')}</Text>
        )}
        {linkable.length > 0 ? (
          <Group gap="xs">
            {linkable.map((p) => (
              <Button
                key={p.id}
                component="a"
                href={linkUrl(p.id)}
                onClick={(event: MouseEvent) => {
                  event.preventDefault();
                  startLink(p.id);
                }}
                variant="default"
                size="xs"
              >
                {t('account.linked.link', { name: p.name })}
              </Button>
            ))}
          </Group>
        ) : null}
      </Stack>
      {fresh.dialog}
      {unlinking ? (
        <ConfirmDialog
          opened
          danger
          title={t('account.linked.unlinkTitle', { name: unlinking.provider.name })}
          message={
            <Stack gap="xs">
              <Text size="sm">{t('account.linked.unlinkText')}</Text>
              {unlink.error ? <FormError error={unlink.error} /> : null}
            </Stack>
          }
          confirmLabel={t('account.linked.unlink')}
          loading={unlink.isPending}
          onClose={() => {
            unlink.reset();
            setUnlinking(null);
          }}
          onConfirm={() =>
            unlink.mutate(unlinking.id, {
              onSuccess: () => {
                notify({ color: 'green', message: t('account.linked.unlinked', { name: unlinking.provider.name }) });
                setUnlinking(null);
              },
            })
          }
        />
      ) : null}
    </Card>
  );
};
