"""The ranchhand server: tables where friends and bots play over HTTP and WebSockets."""
