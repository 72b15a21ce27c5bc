print("onym-ledger")
