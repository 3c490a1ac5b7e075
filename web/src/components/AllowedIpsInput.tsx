import { Textarea } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MAX_ALLOWED_IPS, parseAllowedIps } from '@/lib/allowed-ips';

/** What is wrong with an "allowed IPs" text, in words; undefined when the panel would take it. */
export const allowedIpsProblem = (text: string, t: TFunction): string | undefined => {
  const { invalid, tooMany } = parseAllowedIps(text);
  if (invalid.length > 0) {
    return t('allowedIps.invalid', { entries: invalid.join(', ') });
  }
  return tooMany ? t('allowedIps.tooMany', { max: MAX_ALLOWED_IPS }) : undefined;
};

interface AllowedIpsInputProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** The addresses or CIDR ranges a key may be used from, one a line (empty: any address). */
export const AllowedIpsInput = ({ value, onChange, error }: AllowedIpsInputProps) => {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('allowedIps.label')}
      description={t('allowedIps.help')}
      placeholder={'203.0.113.7\n198.51.100.0/24'}
      autosize
      minRows={2}
      maxRows={8}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
};
