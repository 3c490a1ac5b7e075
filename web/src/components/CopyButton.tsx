import { ActionIcon, CopyButton as MantineCopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name ("Copy request ID"). */
  label?: string;
}

/** An icon button that copies `value` and says so for a moment. */
export const CopyButton = ({ value, label }: CopyButtonProps) => {
  const { t } = useTranslation();
  const name = label ?? t('common.copy');
  return (
    <MantineCopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : name} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={name}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </MantineCopyButton>
  );
};
