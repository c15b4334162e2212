"""gostop: a fast, faithful Go-Stop (고스톱) engine."""
