import { Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { gridFromOctal, isOctalMode, octalFromGrid } from '@/features/files/paths';

interface TextDialogProps {
  opened: boolean;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  description?: ReactNode;
  /** Resolves when done; a rejection is shown in the dialog. */
  onSubmit: (value: string) => Promise<void>;
  onClose: () => void;
  validate?: (value: string) => string | undefined;
  type?: 'text' | 'url';
}

/** One text field in a dialog: new file/folder name, rename or move target, pull URL. */
export const TextDialog = ({ opened, title, label, initial, submitLabel, description, onSubmit, onClose, validate, type = 'text' }: TextDialogProps) => {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setValue(initial);
      setError(null);
    }
  }, [opened, initial]);
  const problem = validate?.(value);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem || value.trim() === '') {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(value.trim());
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={busy ? () => undefined : onClose} title={title} centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label={label} description={description} value={value} onChange={(e) => setValue(e.currentTarget.value)} error={value ? problem : undefined} data-autofocus type={type} required />
          <FormError error={error} />
          <DialogButtons busy={busy} submitLabel={submitLabel} onClose={onClose} disabled={!!problem || value.trim() === ''} />
        </Stack>
      </form>
    </Modal>
  );
};

const DialogButtons = ({ busy, submitLabel, onClose, disabled }: { busy: boolean; submitLabel: string; onClose: () => void; disabled?: boolean }) => {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose} disabled={busy}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={busy} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
};

interface ChmodDialogProps {
  opened: boolean;
  names: string[];
  initial: string;
  onSubmit: (mode: string) => Promise<void>;
  onClose: () => void;
}

const WHO = ['owner', 'group', 'others'] as const;
const WHAT = ['read', 'write', 'execute'] as const;

/** Permissions as an octal number and as boxes; each follows the other. */
export const ChmodDialog = ({ opened, names, initial, onSubmit, onClose }: ChmodDialogProps) => {
  const { t } = useTranslation();
  const [mode, setMode] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setMode(initial);
      setError(null);
    }
  }, [opened, initial]);
  const valid = isOctalMode(mode);
  const grid = gridFromOctal(valid ? mode : '000');
  // A fourth leading digit (setuid, setgid, sticky) is kept when the boxes change.
  const prefix = valid && mode.length === 4 ? mode[0] : '';
  const toggle = (who: number, what: number) => {
    const next = grid.map((row) => [...row] as [boolean, boolean, boolean]);
    next[who][what] = !next[who][what];
    setMode(prefix + octalFromGrid(next));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      return;
    }
    setBusy(true);
    try {
      await onSubmit(mode);
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={busy ? () => undefined : onClose} title={t('files.chmod.title')} centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {names.join(', ')}
          </Text>
          <TextInput
            label={t('files.chmod.octal')}
            value={mode}
            onChange={(e) => setMode(e.currentTarget.value.trim())}
            error={mode && !valid ? t('files.chmod.invalid') : undefined}
            maxLength={4}
            inputMode="numeric"
            data-autofocus
          />
          <Table withTableBorder={false} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>{t('files.chmod.who')}</VisuallyHidden>
                </Table.Th>
                {WHAT.map((what) => (
                  <Table.Th key={what}>{t(`files.chmod.${what}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {WHO.map((who, i) => (
                <Table.Tr key={who}>
                  <Table.Th scope="row">{t(`files.chmod.${who}`)}</Table.Th>
                  {WHAT.map((what, j) => (
                    <Table.Td key={what}>
                      <Checkbox
                        checked={grid[i][j]}
                        onChange={() => toggle(i, j)}
                        aria-label={`${t(`files.chmod.${who}`)}: ${t(`files.chmod.${what}`)}`}
                        disabled={!valid}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <FormError error={error} />
          <DialogButtons busy={busy} submitLabel={t('files.chmod.submit')} onClose={onClose} disabled={!valid} />
        </Stack>
      </form>
    </Modal>
  );
};
