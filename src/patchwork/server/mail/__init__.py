"""Mail about correspondence games (docs/accounts.md, "Mail"): an account's optional address,
confirmed by a link before any mail goes to it; the outbox of mails, each queued once from
the database's state and sent through SMTP by whichever process claims it; every mail with a
one-click stop."""
