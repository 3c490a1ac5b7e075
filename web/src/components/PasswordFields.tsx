import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordProblem } from '@/lib/password-rules';

type CurrentPasswordInputProps = Omit<PasswordInputProps, 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
};

/** The account's current password, asked before a credential changes (e-mail, password, two-factor, re-sign-in). */
export const CurrentPasswordInput = ({ value, onChange, ...props }: CurrentPasswordInputProps) => {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={t('password.current')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      autoComplete="current-password"
      required
      {...props}
    />
  );
};

/** A new password typed twice is ready to send: it keeps the rules and both entries agree. */
export const newPasswordReady = (password: string, repeat: string): boolean => !passwordProblem(password) && password === repeat;

interface NewPasswordFieldsProps {
  value: string;
  repeat: string;
  onChange: (value: string) => void;
  onRepeatChange: (value: string) => void;
  /** Show the rule and mismatch errors: true once the form was submitted. */
  touched: boolean;
  /** The server's own message for the new password (a 422 on that field), shown when the browser found none. */
  serverError?: string;
  autoFocus?: boolean;
}

/** A new password and its repetition, with the password rules and the mismatch checked in the browser. */
export const NewPasswordFields = ({ value, repeat, onChange, onRepeatChange, touched, serverError, autoFocus }: NewPasswordFieldsProps) => {
  const { t } = useTranslation();
  const problem = passwordProblem(value);
  return (
    <>
      <PasswordInput
        label={t('password.new')}
        description={t('password.rules')}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={(touched && problem ? t(`password.problem.${problem}`) : undefined) ?? serverError}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
      />
      <PasswordInput
        label={t('password.repeat')}
        value={repeat}
        onChange={(e) => onRepeatChange(e.currentTarget.value)}
        error={touched && repeat !== value ? t('password.mismatch') : undefined}
        autoComplete="new-password"
        required
      />
    </>
  );
};
