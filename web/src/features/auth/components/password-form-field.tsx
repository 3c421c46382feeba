import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from '@/components/form/form-text-field';
import { AUTH_STRINGS } from '../strings';

/** A password input with a show/hide toggle. */
export function PasswordFormField<Values extends FieldValues, Output>(
  props: Omit<FormTextFieldProps<Values, Output>, 'type'>,
) {
  const [isVisible, setIsVisible] = useState(false);
  const label = isVisible ? AUTH_STRINGS.common.hidePassword : AUTH_STRINGS.common.showPassword;
  return (
    <FormTextField
      {...props}
      type={isVisible ? 'text' : 'password'}
      slotProps={{
        ...props.slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={label}
                aria-pressed={isVisible}
                title={label}
                edge="end"
                onClick={() => setIsVisible((visible) => !visible)}
                // Keeps the focus (and the caret) in the password input when clicked.
                onMouseDown={(event) => event.preventDefault()}
                disabled={props.disabled}
              >
                {isVisible ? <VisibilityOffOutlined /> : <VisibilityOutlined />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
