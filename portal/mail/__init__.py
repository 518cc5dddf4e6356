"""Mail: composing each message from templates (compose) and the outbox that sends it."""
