import { Alert, Badge, Box, Button, Card, Checkbox, Code, CopyButton as MantineCopyButton, Group, List, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { FormError } from '@/components/FormError';
import { CurrentPasswordInput } from '@/components/PasswordFields';
import { useRefreshAccount, useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup, type Account, type TwoFactorSetup } from '@/features/account/api';
import { shownError, useFreshSession } from '@/features/account/components/ReauthDialog';
import { recoveryCodesFile, recoveryCodesFileName } from '@/features/account/recovery-codes';

const download = (text: string, name: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/** Step 2: the QR code (from the otpauth:// URI) and the secret as text, confirmed with a current code. */
const ConfirmStep = ({ setup, onEnabled, onCancel }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void; onCancel: () => void }) => {
  const { t } = useTranslation();
  const enable = useTwoFactorEnable();
  const [code, setCode] = useState('');
  const digits = code.replace(/[\s-]/g, '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate(digits, { onSuccess: onEnabled });
  };
  return (
    <Stack gap="sm">
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>{t('account.twoFactor.stepScan')}</List.Item>
        <List.Item>{t('account.twoFactor.stepCode')}</List.Item>
      </List>
      <Group align="flex-start" gap="lg" wrap="wrap">
        {/* White behind the code in both colour schemes: scanners need the contrast. */}
        <Box p="xs" bg="white" style={{ borderRadius: 'var(--mantine-radius-sm)', lineHeight: 0 }}>
          <QRCodeSVG value={setup.uri} size={176} marginSize={1} title={t('account.twoFactor.qrLabel')} role="img" aria-label={t('account.twoFactor.qrLabel')} />
        </Box>
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 200px' }}>
          <Text size="sm" fw={500}>
            {t('account.twoFactor.secret')}
          </Text>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Code data-testid="two-factor-secret" style={{ overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)' }}>
              {setup.secret}
            </Code>
            <CopyButton value={setup.secret} label={t('account.twoFactor.copySecret')} />
          </Group>
          <Text size="xs" c="dimmed">
            {t('account.twoFactor.secretHelp')}
          </Text>
        </Stack>
      </Group>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('account.twoFactor.code')}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            w={{ base: '100%', xs: 220 }}
            required
          />
          <FormError error={enable.error} />
          <Group>
            <Button type="submit" loading={enable.isPending} disabled={!/^\d{6}$/.test(digits)}>
              {t('account.twoFactor.confirm')}
            </Button>
            <Button variant="default" onClick={onCancel} disabled={enable.isPending}>
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
};

/** Step 3: the recovery codes, once; two-factor shows as on only after the user says they saved them. */
const RecoveryCodesStep = ({ account, codes, onSaved }: { account: Account; codes: string[]; onSaved: () => void }) => {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const text = recoveryCodesFile(codes, account.email, t('account.twoFactor.fileHeading'));
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title={t('account.twoFactor.codesTitle')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
        {t('account.twoFactor.codesText')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.twoFactor.codesList')}>
        {codes.map((code) => (
          <li key={code}>
            <Code fz="sm">{code}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => download(text, recoveryCodesFileName(account.username))}>
          {t('account.twoFactor.download')}
        </Button>
        <MantineCopyButton value={codes.join('\n')} timeout={1500}>
          {({ copied, copy }) => (
            <Button variant="default" leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
              {copied ? t('common.copied') : t('account.twoFactor.copyCodes')}
            </Button>
          )}
        </MantineCopyButton>
      </Group>
      <Checkbox label={t('account.twoFactor.saved')} checked={saved} onChange={(e) => setSaved(e.currentTarget.checked)} />
      <Group>
        <Button onClick={onSaved} disabled={!saved}>
          {t('account.twoFactor.finish')}
        </Button>
      </Group>
    </Stack>
  );
};

const DisableForm = ({ account }: { account: Account }) => {
  const { t } = useTranslation();
  const disable = useTwoFactorDisable();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  if (!account.hasPassword) {
    // Turning it off is confirmed with the password, which an account made by signing on chooses first.
    return <Text size="sm">{t('account.twoFactor.disableNeedsPassword')}</Text>;
  }
  if (!open) {
    return (
      <Group>
        <Button variant="default" color="red" onClick={() => setOpen(true)}>
          {t('account.twoFactor.disable')}
        </Button>
      </Group>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(password, { onSuccess: () => setPassword('') });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('account.twoFactor.disableText')}</Text>
        <CurrentPasswordInput value={password} onChange={setPassword} w={{ base: '100%', xs: 320 }} autoFocus />
        <FormError error={disable.error} />
        <Group>
          <Button type="submit" color="red" loading={disable.isPending} disabled={!password}>
            {t('account.twoFactor.disableSubmit')}
          </Button>
          <Button variant="default" onClick={() => { setOpen(false); setPassword(''); disable.reset(); }} disabled={disable.isPending}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** Two-factor sign-in: set up (QR and secret) → confirm with a code → save the recovery codes → on; or turn off. */
export const TwoFactorCard = ({ account, onChanged }: { account: Account; onChanged: () => void }) => {
  const { t } = useTranslation();
  const setup = useTwoFactorSetup();
  const fresh = useFreshSession(account);
  const refresh = useRefreshAccount();
  const [codes, setCodes] = useState<string[] | null>(null);
  // The account reads "on" as soon as the panel enabled it; the page waits until the codes are saved.
  const on = account.twoFactorEnabled && codes === null;

  const body = (() => {
    if (codes) {
      return (
        <RecoveryCodesStep
          account={account}
          codes={codes}
          onSaved={() => {
            setCodes(null);
            setup.reset();
            void refresh();
            onChanged();
          }}
        />
      );
    }
    if (on) {
      return <DisableForm account={account} />;
    }
    if (setup.data) {
      return <ConfirmStep setup={setup.data} onEnabled={setCodes} onCancel={() => setup.reset()} />;
    }
    return (
      <Stack gap="sm">
        <Text size="sm">{t(account.hasPassword ? 'account.twoFactor.offText' : 'account.twoFactor.offTextNoPassword')}</Text>
        <FormError error={shownError(setup.error)} />
        <Group>
          <Button leftSection={<IconShieldCheck size={16} aria-hidden />} loading={setup.isPending} onClick={() => void fresh.run(() => setup.mutateAsync())}>
            {t('account.twoFactor.enable')}
          </Button>
        </Group>
      </Stack>
    );
  })();

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-two-factor">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="account-two-factor">
          {t('account.twoFactor.title')}
        </Title>
        <Badge color={on ? 'teal.9' : codes ? 'yellow' : 'gray'} variant={on || codes ? 'filled' : 'default'}>
          {on ? t('account.twoFactor.on') : codes ? t('account.twoFactor.pending') : t('account.twoFactor.off')}
        </Badge>
      </Group>
      {body}
      {fresh.dialog}
    </Card>
  );
};
