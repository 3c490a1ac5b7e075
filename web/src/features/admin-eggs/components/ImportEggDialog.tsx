import { Alert, Button, FileButton, Group, List, Modal, Paper, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type Egg, useImportEgg, useImportEggUrl } from '@/features/admin-eggs/api';
import { EGG_FILE_MAX_BYTES, type EggFileProblem, readEggDocument } from '@/features/admin-eggs/egg-form';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatBytes } from '@/lib/format';

/** The panel's refusal, with each field it names (a PTDL document with a missing or mistyped field). */
const ImportError = ({ error }: { error: unknown }) => {
  const fields = error instanceof ApiError ? Object.entries(fieldErrors(error)) : [];
  return (
    <Stack gap={4}>
      <FormError error={error} />
      {fields.length > 0 ? (
        <List size="sm" spacing={2}>
          {fields.map(([field, message]) => (
            <List.Item key={field} style={{ overflowWrap: 'anywhere' }}>
              {message}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
};

const FromFile = ({ nestId, onImported }: { nestId: string; onImported: (egg: Egg) => void }) => {
  const { t, i18n } = useTranslation();
  const importEgg = useImportEgg();
  const [problem, setProblem] = useState<{ key: EggFileProblem; file: string } | null>(null);
  const [over, setOver] = useState(false);

  const take = async (file: File | null | undefined) => {
    if (!file) {
      return;
    }
    importEgg.reset();
    setProblem(null);
    if (file.size > EGG_FILE_MAX_BYTES) {
      setProblem({ key: 'tooLarge', file: file.name });
      return;
    }
    const read = readEggDocument(await file.text());
    if ('problem' in read) {
      setProblem({ key: read.problem, file: file.name });
      return;
    }
    importEgg.mutate({ nestId, document: read.document }, { onSuccess: onImported });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void take(e.dataTransfer.files[0]);
  };

  return (
    <Stack>
      <Paper
        withBorder
        p="lg"
        radius="md"
        data-testid="egg-drop"
        onDragOver={(e: DragEvent) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{ borderStyle: 'dashed', borderWidth: 2, borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined }}
      >
        <Stack align="center" gap="xs" ta="center">
          <IconFileUpload size={32} aria-hidden />
          <Text size="sm">{t('adminEggs.import.dropHere')}</Text>
          <FileButton onChange={(file) => void take(file)} accept="application/json,.json">
            {(props) => (
              <Button {...props} variant="default" loading={importEgg.isPending}>
                {t('adminEggs.import.chooseFile')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('adminEggs.import.fileHelp', { size: formatBytes(EGG_FILE_MAX_BYTES, i18n.language) })}
          </Text>
        </Stack>
      </Paper>
      {problem ? (
        <Alert color="red" variant="light" role="alert" p="sm">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t(`adminEggs.import.problems.${problem.key}`, { file: problem.file })}
          </Text>
        </Alert>
      ) : null}
      {importEgg.error ? <ImportError error={importEgg.error} /> : null}
    </Stack>
  );
};

const FromUrl = ({ nestId, onImported }: { nestId: string; onImported: (egg: Egg) => void }) => {
  const { t } = useTranslation();
  const importUrl = useImportEggUrl();
  const [url, setUrl] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        importUrl.mutate({ nestId, url: url.trim() }, { onSuccess: onImported });
      }}
    >
      <Stack>
        <TextInput
          label={t('adminEggs.import.url')}
          description={t('adminEggs.import.urlHelp')}
          placeholder="https://"
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          data-autofocus
        />
        {importUrl.error ? <ImportError error={importUrl.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={importUrl.isPending} disabled={!url.trim()}>
            {t('adminEggs.import.fromUrlSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** "Import egg": a PTDL_v1/v2 JSON file (picked or dropped) or a URL the panel fetches, into this nest. */
export const ImportEggDialog = ({ nestId, onClose, onImported }: { nestId: string; onClose: () => void; onImported: (egg: Egg) => void }) => {
  const { t } = useTranslation();
  const done = (egg: Egg) => {
    onClose();
    onImported(egg);
  };
  return (
    <Modal opened onClose={onClose} title={t('adminEggs.import.title')} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg">
      <Tabs defaultValue="file" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="file">{t('adminEggs.import.fromFile')}</Tabs.Tab>
          <Tabs.Tab value="url">{t('adminEggs.import.fromUrl')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="file">
          <FromFile nestId={nestId} onImported={done} />
        </Tabs.Panel>
        <Tabs.Panel value="url">
          <FromUrl nestId={nestId} onImported={done} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
};
