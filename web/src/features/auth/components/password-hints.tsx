import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { getPasswordStrength, type PasswordStrengthLevel } from '@/lib/password-strength';
import { AUTH_STRINGS } from '../strings';

const LEVELS: readonly PasswordStrengthLevel[] = ['weak', 'medium', 'strong'];
const COLORS = { weak: 'error.main', medium: 'warning.main', strong: 'success.main' } as const;

/** The weak / medium / strong hint (passwordStrength) under a new password; nothing while it is empty. */
export function PasswordStrengthHint({ password }: { password: string }) {
  if (password === '') return null;
  const { level } = getPasswordStrength(password);
  const filled = LEVELS.indexOf(level) + 1;
  return (
    <Box
      data-testid="password-strength"
      data-level={level}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 1, px: 1.75 }}
    >
      <Box aria-hidden sx={{ display: 'flex', gap: 0.5, flex: 1, maxWidth: 180 }}>
        {LEVELS.map((item, index) => (
          <Box
            key={item}
            sx={{
              height: 4,
              flex: 1,
              borderRadius: 2,
              bgcolor: index < filled ? COLORS[level] : 'action.disabledBackground',
            }}
          />
        ))}
      </Box>
      <Typography variant="caption" aria-live="polite" sx={{ color: COLORS[level], fontWeight: 600 }}>
        {AUTH_STRINGS.register.strength}：{AUTH_STRINGS.register.strengthLevels[level]}
      </Typography>
    </Box>
  );
}

/**
 * The match hint under a confirmation field, used as its helper text so
 * screen readers announce it; a validation error of the field replaces it. Nothing while it is empty.
 */
export function PasswordMatchHint({ password, confirmation }: { password: string; confirmation: string }) {
  if (confirmation === '') return null;
  const matches = password === confirmation;
  return (
    <Box
      component="span"
      data-testid="password-match"
      data-match={matches}
      sx={{ color: matches ? 'success.main' : 'warning.dark' }}
    >
      {matches ? AUTH_STRINGS.register.passwordsMatch : AUTH_STRINGS.register.passwordsDiffer}
    </Box>
  );
}
