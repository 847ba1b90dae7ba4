"""The erasure page's form: whom to forget, and optionally which one session."""

from django import forms
from django.core.validators import RegexValidator

from apps.conversations import input_limits as limits


class ErasureForm(forms.Form):
    user = forms.CharField(
        max_length=limits.MAX_USER_CHARS,
        validators=[RegexValidator(limits.USER_RE, "Not a user id.")],
    )
    session = forms.CharField(
        max_length=limits.MAX_SID_CHARS,
        required=False,
        validators=[RegexValidator(limits.SID_RE, "Not a session id.")],
        help_text="Leave empty to erase every session of the user.",
    )
